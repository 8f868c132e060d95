"""The sentence above the candidates' buttons fits what happened: several fit every
word ("Which one do you mean?"), only the nearest were found (a typo, nothing
described), or there is just one to ask about (issue 22, point 1)."""

from __future__ import annotations

from django.utils import timezone, translation

from bankbot.agent import run_turn
from bankbot.chat import message_customer_add
from bankbot.fragments import new_turn_id, render_event
from tests.agent.fakes import ScriptedModel, call, text
from tools.models import Proposal


def denied_turn(conversation, said: str, tool: str, arguments: dict):
    message, _ = message_customer_add(conversation=conversation, text=said)
    model = ScriptedModel(call(tool, arguments), text("Here are the nearest."))
    events = []
    run_turn(
        user=conversation.customer.user,
        conversation=conversation,
        customer_message=message,
        on_event=events.append,
        client=model.client(),
    )
    assert not Proposal.objects.exists()
    tool_event = next(e for e in events if e.kind == "tool")
    return render_event(tool_event, turn=new_turn_id(), conversation=conversation)


MAGNUM = {"transaction": "T-1003", "amount": "2500.50", "reason": "not_recognised"}


def test_it_says_the_nearest_when_a_misspelt_name_matched_nothing(alice_conversation):
    html = denied_turn(alice_conversation, "please dispute the Magnm charge", "raise_dispute", MAGNUM)
    assert "The nearest matches" in html
    assert "Which one do you mean?" not in html
    assert "T-1001" in html
    assert html.index("T-1001") < html.index("T-1003")  # the nearest first
    assert "T-1002" not in html  # too old to dispute: never offered


def test_it_offers_the_recent_rows_when_no_transaction_was_described(alice_conversation):
    html = denied_turn(alice_conversation, "I want to dispute a payment", "raise_dispute", MAGNUM)
    assert "The nearest matches" in html
    assert html.count('name="operation" value="raise_dispute"') == 3  # T-1001, T-1003, T-1004


def test_it_asks_about_a_single_candidate_instead_of_asking_which_one(alice, alice_conversation):
    alice.accounts.get().cards.filter(last4="5505").update(status="blocked", blocked_at=timezone.now())
    html = denied_turn(alice_conversation, "maybe block my card", "block_card", {"card": "5505"})
    assert "Is this the one you mean?" in html
    assert "Which one do you mean?" not in html
    assert html.count('name="operation" value="block_card"') == 1


def test_it_says_the_nearest_in_russian(alice_conversation):
    with translation.override("ru"):
        html = denied_turn(alice_conversation, "оспорьте платёж Magnm", "raise_dispute", MAGNUM)
    assert "Самые близкие варианты" in html
    assert "T-1001" in html
