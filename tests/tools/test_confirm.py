"""Writes execute only from a confirmation of the owner's pending proposal (G3, G4, G5)."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Card
from accounts.services import card_block
from disputes.models import Dispute
from disputes.services import dispute_open
from errors import Conflict, NotFound
from tests.tools.helpers import fresh_block_proposal
from tools.catalog import CATALOG
from tools.context import InvalidAuthorizationContext
from tools.faults import ResponseLost, inject_fault
from tools.idempotency import TemporarilyUnavailable
from tools.models import Confirmation, Proposal, ToolCallTrace
from tools.proposals import (
    ProposalChanged,
    ProposalExpired,
    args_digest,
    proposal_confirm,
    proposal_decline,
)


@pytest.fixture
def block_proposal(alice_conversation, harness_for) -> Proposal:
    return harness_for(alice_conversation, "block my card 4242").call("block_card", {"card": "4242"}).proposal


@pytest.fixture
def dispute_proposal(alice_conversation, harness_for) -> Proposal:
    return (
        harness_for(alice_conversation, "dispute the Magnum charge")
        .call("raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"})
        .proposal
    )


def confirm(user, proposal):
    return proposal_confirm(user=user, public_id=proposal.public_id, digest=proposal.args_digest)


def events(proposal) -> list[str]:
    return list(ToolCallTrace.objects.filter(proposal=proposal).values_list("event", flat=True))


def test_confirming_blocks_the_card_with_a_server_made_key(alice, block_proposal):
    outcome = confirm(alice.user, block_proposal)
    assert outcome.response["status"] == "executed"
    assert outcome.response["result"]["status"] == "blocked"
    assert not outcome.replayed
    card = Card.objects.get(last4="4242")
    key = Confirmation.objects.get(proposal=block_proposal).idempotency_key
    assert card.status == "blocked" and card.block_key == key
    assert key.version == 4
    assert events(block_proposal) == ["proposed", "executed"]


def test_confirming_twice_in_sequence_is_one_action_with_identical_responses(alice, dispute_proposal):
    first = confirm(alice.user, dispute_proposal)
    second = confirm(alice.user, dispute_proposal)
    assert Dispute.objects.count() == 1
    assert first.response == second.response
    assert first.response["result"]["dispute_id"].startswith("D-")
    assert second.replayed and not first.replayed
    assert Confirmation.objects.count() == 1
    assert events(dispute_proposal)[-1] == "replayed"


def test_bob_confirming_alices_proposal_gets_not_found(bob, dispute_proposal):
    with pytest.raises(NotFound) as foreign:
        confirm(bob.user, dispute_proposal)
    with pytest.raises(NotFound) as missing:
        proposal_confirm(
            user=bob.user, public_id=uuid.UUID("5f0c6c55-4c2c-4b57-9d8d-000000000000"), digest="x"
        )
    assert foreign.value.message == missing.value.message
    assert not Dispute.objects.exists()
    assert Proposal.objects.get().status == "pending"


def test_no_session_cannot_confirm(dispute_proposal):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises((NotFound, InvalidAuthorizationContext)):
        confirm(AnonymousUser(), dispute_proposal)
    assert not Dispute.objects.exists()


def test_an_expired_proposal_is_refused(alice, dispute_proposal):
    Proposal.objects.filter(pk=dispute_proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ProposalExpired, match="expired"):
        confirm(alice.user, dispute_proposal)
    assert not Dispute.objects.exists()
    assert Proposal.objects.get().status == "expired"
    assert events(dispute_proposal)[-1] == "expired"


def test_a_proposals_expiry_is_decided_in_one_place_for_click_decline_and_card(alice, dispute_proposal):
    from bankbot.cards import proposal_card
    from tools.proposals import proposal_state

    expires = dispute_proposal.expires_at
    assert proposal_state(dispute_proposal, now=expires - timedelta(seconds=1)) == "pending"
    assert proposal_state(dispute_proposal, now=expires) == "expired"  # at its time, not after
    dispute_proposal.status = Proposal.Status.EXECUTED
    assert proposal_state(dispute_proposal, now=expires + timedelta(days=1)) == "executed"
    dispute_proposal.status = Proposal.Status.PENDING
    Proposal.objects.filter(pk=dispute_proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    dispute_proposal.refresh_from_db()
    assert proposal_card(dispute_proposal).state == "expired"  # the card, before any click


def test_a_tampered_digest_is_refused(alice, dispute_proposal):
    with pytest.raises(ProposalChanged):
        proposal_confirm(
            user=alice.user,
            public_id=dispute_proposal.public_id,
            digest=args_digest("raise_dispute", {"amount": "1"}),
        )
    assert not Dispute.objects.exists()
    assert events(dispute_proposal)[-1] == "denied"


def test_arguments_changed_after_showing_are_refused(alice, dispute_proposal):
    shown = dispute_proposal.args_digest
    Proposal.objects.filter(pk=dispute_proposal.pk).update(
        args={**dispute_proposal.args, "amount": "14000.00"}
    )
    with pytest.raises(ProposalChanged):
        proposal_confirm(user=alice.user, public_id=dispute_proposal.public_id, digest=shown)
    assert not Dispute.objects.exists()


def test_declining_is_recorded_and_final(alice, dispute_proposal):
    proposal_decline(user=alice.user, public_id=dispute_proposal.public_id)
    assert Proposal.objects.get().status == "declined"
    with pytest.raises(Conflict, match="declined"):
        confirm(alice.user, dispute_proposal)
    assert not Dispute.objects.exists()
    assert events(dispute_proposal) == ["proposed", "declined", "denied"]  # both clicks


def test_bob_cannot_decline_alices_proposal(bob, dispute_proposal):
    with pytest.raises(NotFound):
        proposal_decline(user=bob.user, public_id=dispute_proposal.public_id)
    assert Proposal.objects.get().status == "pending"


def test_a_transient_failure_is_retried_whole_with_the_same_key_and_makes_one_dispute(
    alice, dispute_proposal
):
    with inject_fault("after_service", ResponseLost("connection reset"), times=1):
        outcome = confirm(alice.user, dispute_proposal)
    assert outcome.response["status"] == "executed"
    dispute = Dispute.objects.get()
    key = Confirmation.objects.get().idempotency_key
    assert dispute.idempotency_key == key
    retries = ToolCallTrace.objects.filter(proposal=dispute_proposal, decision="retry")
    assert [(r.idempotency_key, r.approver) for r in retries] == [(key, alice.user)]
    assert outcome.response["result"]["dispute_id"] == dispute.reference
    assert events(dispute_proposal) == ["proposed", "failed", "executed"]


def test_persistent_transient_failure_leaves_nothing_done_and_the_card_clickable(alice, dispute_proposal):
    with (
        inject_fault("after_service", ResponseLost("down"), times=3),
        pytest.raises(TemporarilyUnavailable, match="Nothing was done"),
    ):
        confirm(alice.user, dispute_proposal)
    assert not Dispute.objects.exists()  # each try rolled back, the service's insert with it
    assert not Confirmation.objects.exists()
    assert Proposal.objects.get().status == "pending"
    tries = ToolCallTrace.objects.filter(proposal=dispute_proposal, event="failed")
    assert [(t.decision, t.approver) for t in tries] == [("retry", alice.user)] * 2 + [("error", alice.user)]
    retried = confirm(alice.user, dispute_proposal)
    assert retried.response["status"] == "executed"
    assert Dispute.objects.count() == 1 and Confirmation.objects.count() == 1


def test_a_rule_broken_between_proposal_and_click_fails_clearly(alice, dispute_proposal):
    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    )
    outcome = confirm(alice.user, dispute_proposal)
    assert outcome.response["status"] == "failed"
    assert outcome.response["error"]["code"] == "dispute_already_open"
    assert Proposal.objects.get(pk=dispute_proposal.pk).status == "failed"
    assert Dispute.objects.count() == 1
    assert events(dispute_proposal)[-1] == "failed"


def test_past_the_keys_retention_a_click_on_a_done_card_runs_nothing(alice, block_proposal):
    confirm(alice.user, block_proposal)
    Confirmation.objects.update(replay_until=timezone.now())
    with pytest.raises(Conflict, match="carried out already"):
        confirm(alice.user, block_proposal)
    assert Confirmation.objects.count() == 1
    assert Proposal.objects.get().status == "executed"


@pytest.mark.django_db(transaction=True)  # no test transaction around it: every savepoint counts
def test_a_first_click_runs_the_service_in_a_savepoint_of_its_transaction(alice, block_proposal):
    with CaptureQueriesContext(connection) as captured:
        confirm(alice.user, block_proposal)
    sql = [q["sql"] for q in captured.captured_queries]
    assert len([s for s in sql if s.startswith("BEGIN")]) == 1 and sql[-1] == "COMMIT", sql
    lock = next(i for i, s in enumerate(sql) if 'FROM "tools_proposal"' in s)
    opened = next(i for i, s in enumerate(sql) if s.startswith("SAVEPOINT"))
    blocked = next(i for i, s in enumerate(sql) if s.startswith('UPDATE "accounts_card"'))
    released = next(i for i, s in enumerate(sql) if s == "RELEASE " + sql[opened])
    recorded = next(i for i, s in enumerate(sql) if s.startswith('UPDATE "tools_proposal"'))
    assert lock < opened < blocked < released < recorded, sql
    assert Card.objects.get(last4="4242").status == "blocked"


def test_a_service_that_refuses_after_writing_leaves_none_of_its_writes(alice, block_proposal, monkeypatch):
    # The write is released into the click's transaction before the refusal: the
    # savepoint around the run takes it back, and the click stores the refusal.
    def blocks_then_refuses(ctx, args, *, idempotency_key):
        card_block(customer=ctx.customer, last4=args.card, idempotency_key=idempotency_key)
        raise Conflict("Refused after writing.", code="refused_late")

    spec = CATALOG["block_card"]
    monkeypatch.setitem(CATALOG, "block_card", dataclasses.replace(spec, run=blocks_then_refuses))
    outcome = confirm(alice.user, block_proposal)
    assert outcome.response["status"] == "failed"
    assert outcome.response["error"]["code"] == "refused_late"
    assert Card.objects.get(last4="4242").status == "active"
    assert Proposal.objects.get(pk=block_proposal.pk).status == "failed"
    assert Confirmation.objects.get().response == outcome.response
    assert events(block_proposal) == ["proposed", "failed"]
    assert confirm(alice.user, block_proposal).replayed


@pytest.mark.django_db(transaction=True)
def test_a_first_click_costs_the_service_plus_eight_statements(alice, alice_conversation):
    # The floor of docs/benchmarks.md. In the click the service's own transaction is
    # a savepoint pair where alone it is BEGIN and COMMIT; the click adds its BEGIN
    # and COMMIT, the lock, the savepoint pair around the run, the proposal's update,
    # the confirmation with its key and response, one trace row; nothing else.
    Card.objects.create(account=Card.objects.get(last4="4242").account, last4="4343")
    with CaptureQueriesContext(connection) as bare:
        card_block(customer=alice, last4="4343", idempotency_key=uuid.uuid4())
    proposal = fresh_block_proposal(alice, alice_conversation)
    with CaptureQueriesContext(connection) as clicked:
        confirm(alice.user, proposal)
    assert len(clicked) == len(bare) + 8, [q["sql"][:60] for q in clicked.captured_queries]
