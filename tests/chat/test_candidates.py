"""When the customer's words fit several of their objects, nothing is proposed and the
chat shows the candidates with their buttons: the click is the mandate (G7)."""

from __future__ import annotations

from accounts.models import Transaction
from bankbot.agent import run_turn
from bankbot.chat import message_customer_add
from bankbot.fragments import new_turn_id, render_event
from tests.agent.fakes import ScriptedModel, call, text
from tests.factories import days_ago
from tools.models import Proposal


def ambiguous_turn(conversation):
    """Two Magnum charges; the customer names "the Magnum charge"; the model picks one."""
    Transaction.objects.create(
        account=conversation.customer.accounts.get(),
        reference="T-1009",
        posted_at=days_ago(9),
        amount="7300.00",
        merchant="Magnum Cash&Carry",
        description="Groceries",
    )
    message, _ = message_customer_add(conversation=conversation, text="please dispute the Magnum charge")
    model = ScriptedModel(
        call("raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"}),
        text("Which Magnum charge do you mean?"),
    )
    events = []
    run_turn(
        user=conversation.customer.user,
        conversation=conversation,
        customer_message=message,
        on_event=events.append,
        client=model.client(),
    )
    return events


def test_it_shows_the_candidates_with_their_dispute_buttons(alice_conversation):
    events = ambiguous_turn(alice_conversation)
    assert not Proposal.objects.exists()
    tool = next(e for e in events if e.kind == "tool")
    html = render_event(tool, turn=new_turn_id(), conversation=alice_conversation)
    assert "Which one do you mean?" in html
    assert "T-1001" in html and "T-1009" in html
    assert html.count('name="operation" value="raise_dispute"') == 2


def test_the_candidates_are_there_after_a_reload(browser_for, alice, alice_conversation):
    ambiguous_turn(alice_conversation)
    page = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "Which one do you mean?" in page
    assert "T-1009" in page


def test_the_model_hears_the_candidates_as_data(alice_conversation):
    ambiguous_turn(alice_conversation)
    tool_message = alice_conversation.messages.get(role="tool")
    content = tool_message.payload["content"]
    assert '"code": "target_not_in_mandate"' in content
    assert '"candidates"' in content and '"external_text": "Magnum Cash&Carry"' in content
