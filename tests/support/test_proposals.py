"""The holder proposes a write from the staff page; only the customer's click executes it.

Each rule tried to be broken first: a staff member who does not hold the conversation
cannot propose in it, a refusal proposes nothing and stays on the record, and proposing
executes nothing."""

from __future__ import annotations

import pytest

from accounts.models import Card
from bankbot.staff_proposals import StaffProposalRefused
from errors import NotPermitted
from support.models import HandoffEvent
from support.services import handoff_take, staff_propose
from tools.models import Proposal, ToolCallTrace


def test_the_holder_proposes_a_block_and_it_is_on_the_hand_overs_record(handoff, aigerim):
    handoff_take(staff=aigerim, pk=handoff.pk)

    proposal = staff_propose(staff=aigerim, pk=handoff.pk, tool="block_card", arguments={"card": "4242"})

    assert (proposal.status, proposal.proposed_by, proposal.conversation) == (
        "pending",
        aigerim,
        handoff.conversation,
    )
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE  # nothing executed
    event = HandoffEvent.objects.get(kind=HandoffEvent.Kind.PROPOSED)
    assert event.actor == aigerim and "block_card" in event.text and proposal.reference in event.text


@pytest.mark.parametrize("holds", ["nobody", "another"])
def test_only_the_holder_may_propose(handoff, aigerim, dias, holds):
    if holds == "another":
        handoff_take(staff=dias, pk=handoff.pk)
    with pytest.raises(NotPermitted):
        staff_propose(staff=aigerim, pk=handoff.pk, tool="block_card", arguments={"card": "4242"})
    assert not Proposal.objects.exists()
    assert not HandoffEvent.objects.filter(kind=HandoffEvent.Kind.PROPOSED).exists()


def test_a_refused_proposal_proposes_nothing_and_stays_on_the_trace(handoff, aigerim, bob):
    handoff_take(staff=aigerim, pk=handoff.pk)
    with pytest.raises(StaffProposalRefused):  # Bob's card, not the customer's
        staff_propose(staff=aigerim, pk=handoff.pk, tool="block_card", arguments={"card": "1111"})
    assert not Proposal.objects.exists()
    assert not HandoffEvent.objects.filter(kind=HandoffEvent.Kind.PROPOSED).exists()
    refused = ToolCallTrace.objects.get()
    assert (refused.decision, refused.proposer) == ("deny", aigerim)
    assert Card.objects.get(last4="1111").status == Card.Status.ACTIVE


def test_the_page_proposes_a_dispute_of_a_named_row(browser_for, handoff, aigerim):
    client = browser_for(aigerim)
    client.post(f"/support/{handoff.pk}/take")
    page = client.get(f"/support/{handoff.pk}/").content.decode()
    assert 'id="support-propose"' in page and "Propose to the customer" in page

    response = client.post(
        f"/support/{handoff.pk}/propose",
        {"tool": "raise_dispute", "transaction": "t-1001", "amount": "15 000,00", "reason": "charged_twice"},
    )

    assert response.status_code == 302
    proposal = Proposal.objects.get()
    assert (proposal.tool, proposal.args) == (
        "raise_dispute",
        {"transaction": "T-1001", "amount": "15000.00", "reason": "charged_twice"},
    )


def test_the_page_shows_a_refusal_and_proposes_nothing(browser_for, handoff, aigerim):
    client = browser_for(aigerim)
    client.post(f"/support/{handoff.pk}/take")

    response = client.post(f"/support/{handoff.pk}/propose", {"tool": "get_balance", "card": "4242"})

    assert response.status_code == 409
    assert 'class="error"' in response.content.decode()
    assert not Proposal.objects.exists()


def test_the_propose_form_is_only_for_the_holder(browser_for, handoff, aigerim, dias):
    browser_for(dias).post(f"/support/{handoff.pk}/take")
    assert browser_for(aigerim).post(f"/support/{handoff.pk}/propose", {"card": "4242"}).status_code == 404
    assert not Proposal.objects.exists()
