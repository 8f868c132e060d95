"""End to end with the offline model and the guarded harness: every request to act
ends in the action or in buttons, never in a question without them (issue 22,
points 1 and 4); nothing is proposed that the customer did not ask for exactly."""

from __future__ import annotations

from bankbot.fragments import new_turn_id, render_event
from tools.models import Proposal


def buttons(conversation, events, operation: str) -> str:
    html = "".join(
        render_event(e, turn=new_turn_id(), conversation=conversation) for e in events if e.kind == "tool"
    )
    assert f'name="operation" value="{operation}"' in html, html
    return html


def test_it_offers_the_nearest_charges_for_a_misspelt_merchant(alice_conversation, say):
    reply, events = say(alice_conversation, "please dispute the Magnm charge")
    assert not Proposal.objects.exists()
    html = buttons(alice_conversation, events, "raise_dispute")
    assert "The nearest matches" in html and "T-1001" in html
    assert "press the button next to the one you mean" in reply.text


def test_it_offers_both_cards_when_my_card_could_be_either(alice_conversation, say):
    reply, events = say(alice_conversation, "block my card")
    assert not Proposal.objects.exists()
    html = buttons(alice_conversation, events, "block_card")
    assert "4242" in html and "5505" in html
    assert "Which one do you mean?" in html


def test_it_proposes_when_the_wish_is_for_the_result(alice_conversation, say):
    reply, events = say(alice_conversation, "I'd like card 4242 blocked please")
    assert Proposal.objects.get().tool == "block_card"


def test_it_follows_the_exact_call_the_customer_asked_for(alice_conversation, say):
    # The offline model reads no reason in "I returned it"; the mandate reads
    # "cancelled", denies the guess and names the exact call, which is made once.
    reply, events = say(alice_conversation, "please dispute T-1001, I returned it")
    proposal = Proposal.objects.get()
    assert proposal.args == {"transaction": "T-1001", "amount": "15000.00", "reason": "cancelled"}
    assert [
        e.data["status"] for e in events if e.kind == "tool" and e.data.get("tool") == "raise_dispute"
    ] == ["error", "awaiting_confirmation"]
