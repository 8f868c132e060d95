"""Every click on a card is on the record, naming who clicked — refused ones too (G9).

A click on someone else's card answers exactly like a missing one; the trace row
still names the row's owner as the customer and the clicker as the approver.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from errors import Conflict, NotFound
from tools.models import Proposal, ToolCallTrace
from tools.proposals import ProposalExpired, proposal_confirm, proposal_decline, proposal_get

MISSING = uuid.UUID("5f0c6c55-4c2c-4b57-9d8d-000000000000")


@pytest.fixture
def proposal(alice_conversation, harness_for) -> Proposal:
    return harness_for(alice_conversation, "block my card 4242").call("block_card", {"card": "4242"}).proposal


def confirm(user, proposal):
    return proposal_confirm(user=user, public_id=proposal.public_id, digest=proposal.args_digest)


def decline(user, proposal):
    return proposal_decline(user=user, public_id=proposal.public_id)


def last_row(proposal=None) -> ToolCallTrace:
    rows = ToolCallTrace.objects.all() if proposal is None else proposal.trace.all()
    return rows.order_by("-id").first()


def record(row: ToolCallTrace) -> tuple:
    return (row.event, row.decision, row.reason_code, row.approver, row.customer)


@pytest.mark.parametrize("click", [confirm, decline])
def test_someone_elses_click_is_not_found_to_them_and_on_the_owners_record(click, alice, bob, proposal):
    with pytest.raises(NotFound) as foreign:
        click(bob.user, proposal)
    with pytest.raises(NotFound) as missing:
        proposal_confirm(user=bob.user, public_id=MISSING, digest="x")
    assert foreign.value.as_dict() == missing.value.as_dict()
    row = last_row(proposal)
    assert record(row) == ("denied", "deny", "not_owner", bob.user, alice)
    assert row.conversation == proposal.conversation and row.result is None
    assert Proposal.objects.get().status == "pending"


@pytest.mark.parametrize("public_id", ["not-a-uuid", "same as the card's, as text"])
def test_an_id_not_parsed_where_it_arrived_is_the_callers_mistake(alice, proposal, public_id):
    # The views' URLs parse it (<uuid:…>); a caller that hands over text is told so, and
    # nothing is done or recorded, even for the owner and the card's own id as text.
    text = str(proposal.public_id) if public_id.startswith("same") else public_id
    rows = ToolCallTrace.objects.count()
    for click in (
        lambda: proposal_confirm(user=alice.user, public_id=text, digest=proposal.args_digest),
        lambda: proposal_decline(user=alice.user, public_id=text),
        lambda: proposal_get(customer=alice, public_id=text),
    ):
        with pytest.raises(TypeError, match=r"a proposal's public_id is a uuid\.UUID, not str"):
            click()
    assert ToolCallTrace.objects.count() == rows
    assert Proposal.objects.get().status == "pending"


def test_a_click_on_a_card_that_does_not_exist_names_the_clicker(bob):
    with pytest.raises(NotFound):
        proposal_decline(user=bob.user, public_id=MISSING)
    row = last_row()
    assert (row.event, row.reason_code, row.approver, row.proposal) == (
        "denied",
        "proposal_not_found",
        bob.user,
        None,
    )


def test_confirm_after_decline_is_refused_on_the_record(alice, proposal):
    decline(alice.user, proposal)
    with pytest.raises(Conflict, match="declined"):
        confirm(alice.user, proposal)
    assert [record(r) for r in proposal.trace.all()][1:] == [
        ("declined", "deny", "declined", alice.user, alice),
        ("denied", "deny", "proposal_declined", alice.user, alice),
    ]


def test_decline_after_confirm_is_refused_on_the_record(alice, proposal):
    confirm(alice.user, proposal)
    with pytest.raises(Conflict, match="confirmed this action already"):
        decline(alice.user, proposal)
    assert record(last_row(proposal)) == ("denied", "deny", "proposal_not_pending", alice.user, alice)
    assert Proposal.objects.get().status == "executed"


@pytest.mark.parametrize("click", [confirm, decline])
def test_a_click_on_an_expired_card_expires_it_on_the_record(click, alice, proposal):
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ProposalExpired):
        click(alice.user, proposal)
    assert record(last_row(proposal)) == ("expired", "deny", "proposal_expired", alice.user, alice)
    with pytest.raises(ProposalExpired):
        click(alice.user, proposal)
    assert record(last_row(proposal)) == ("denied", "deny", "proposal_expired", alice.user, alice)
    assert Proposal.objects.get().status == "expired"


def test_a_replayed_confirm_names_the_approver_of_that_click(alice, proposal):
    confirm(alice.user, proposal)
    replay = confirm(alice.user, proposal)
    row = last_row(proposal)
    assert replay.replayed
    assert record(row) == ("replayed", "ok", "", alice.user, alice)
    assert row.idempotency_key == proposal.confirmation.idempotency_key
    assert row.result == replay.response


def test_a_second_decline_is_a_replay_on_the_record(alice, proposal):
    decline(alice.user, proposal)
    decline(alice.user, proposal)
    assert [r.event for r in proposal.trace.all()] == ["proposed", "declined", "replayed"]
    assert record(last_row(proposal))[3] == alice.user
