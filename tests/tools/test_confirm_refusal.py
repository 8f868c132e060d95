"""A service that refuses inside the click: the refusal is an answer, stored under the
click's key and replayed like a success, and none of the click's writes before it stay
(G5, G11). The click runs once, in one transaction: the service's run is a savepoint
that the refusal rolls back to."""

from __future__ import annotations

import dataclasses
import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Card
from accounts.services import card_block
from disputes.models import Dispute
from disputes.services import dispute_open
from errors import Conflict
from tests.tools.helpers import fresh_block_proposal
from tools.catalog import CATALOG
from tools.models import Confirmation, Proposal, ToolCallTrace
from tools.proposals import proposal_confirm


def confirm(user, proposal):
    return proposal_confirm(user=user, public_id=proposal.public_id, digest=proposal.args_digest)


def events(proposal) -> list[str]:
    return list(ToolCallTrace.objects.filter(proposal=proposal).values_list("event", flat=True))


def dispute_proposal(
    harness_for, conversation, reference: str = "T-1001", amount: str = "15000.00"
) -> Proposal:
    return (
        harness_for(conversation, f"dispute {reference}")
        .call("raise_dispute", {"transaction": reference, "amount": amount, "reason": "not_recognised"})
        .proposal
    )


def open_dispute_meanwhile(customer, reference: str = "T-1001", amount: str = "15000.00") -> Dispute:
    """Another confirmation (another key) opened a dispute on the row after the card was shown."""
    return dispute_open(
        customer=customer,
        transaction_reference=reference,
        amount=amount,
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    ).dispute


def assert_stored_and_replayed(user, proposal, first) -> None:
    """The refusal is the click's stored answer, and a second click replays it."""
    stored = Confirmation.objects.get(proposal=proposal)
    assert stored.response == first.response == Proposal.objects.get(pk=proposal.pk).result
    assert Proposal.objects.get(pk=proposal.pk).status == "failed"
    again = confirm(user, proposal)
    assert again.replayed and not first.replayed
    assert again.response == first.response
    assert events(proposal)[-2:] == ["failed", "replayed"]
    failed = ToolCallTrace.objects.get(proposal=proposal, event="failed")
    assert (failed.idempotency_key, failed.approver) == (stored.idempotency_key, user)
    assert failed.reason_code == first.response["error"]["code"]


def test_a_dispute_on_a_row_that_has_one_is_refused_stored_and_replayed(
    alice, alice_conversation, harness_for
):
    proposal = dispute_proposal(harness_for, alice_conversation)
    existing = open_dispute_meanwhile(alice)

    first = confirm(alice.user, proposal)

    assert first.response["status"] == "failed"
    assert first.response["error"]["code"] == "dispute_already_open"
    assert list(Dispute.objects.values_list("pk", flat=True)) == [existing.pk]  # no second dispute
    assert_stored_and_replayed(alice.user, proposal, first)
    assert Dispute.objects.count() == 1


def test_an_unblock_of_a_card_the_bank_blocked_meanwhile_is_refused_and_changes_nothing(
    alice, alice_conversation, harness_for
):
    Card.objects.filter(last4="4242").update(
        status="blocked", blocked_at=timezone.now(), blocked_by="customer", block_key=uuid.uuid4()
    )
    proposal = (
        harness_for(alice_conversation, "unblock my card 4242")
        .call("unblock_card", {"card": "4242"})
        .proposal
    )
    Card.objects.filter(last4="4242").update(blocked_by="bank", block_key=None)  # the bank's block now
    before = Card.objects.values().get(last4="4242")

    first = confirm(alice.user, proposal)

    assert first.response["error"]["code"] == "card_blocked_by_bank"
    assert Card.objects.values().get(last4="4242") == before
    assert not Card.objects.get(last4="4242").unblocks.exists()
    assert_stored_and_replayed(alice.user, proposal, first)


@pytest.mark.parametrize("where", ["after_its_transaction", "inside_its_transaction"])
def test_a_refusal_after_a_write_in_the_same_run_leaves_no_partial_write(
    alice, alice_conversation, harness_for, monkeypatch, where
):
    # A run that first blocks a card for real, then meets a real refusal (the row has
    # a dispute): the block must go with the refusal, whether the write was released
    # into the click's transaction or is still inside the service's own.
    proposal = dispute_proposal(harness_for, alice_conversation)
    existing = open_dispute_meanwhile(alice)
    spec = CATALOG["raise_dispute"]

    def blocks_then_disputes(ctx, args, *, idempotency_key):
        if where == "after_its_transaction":
            card_block(customer=ctx.customer, last4="4242", idempotency_key=idempotency_key)
            return spec.run(ctx, args, idempotency_key=idempotency_key)
        with transaction.atomic():
            card_block(customer=ctx.customer, last4="4242", idempotency_key=idempotency_key)
            return spec.run(ctx, args, idempotency_key=idempotency_key)

    monkeypatch.setitem(CATALOG, "raise_dispute", dataclasses.replace(spec, run=blocks_then_disputes))

    first = confirm(alice.user, proposal)

    assert first.response["error"]["code"] == "dispute_already_open"
    card = Card.objects.get(last4="4242")
    assert (card.status, card.block_key, card.blocked_at) == ("active", None, None)
    assert list(Dispute.objects.values_list("pk", flat=True)) == [existing.pk]
    assert_stored_and_replayed(alice.user, proposal, first)
    assert Card.objects.get(last4="4242").status == "active"  # the replay ran nothing


@pytest.mark.django_db(transaction=True)  # no test transaction around it: every statement counts
def test_a_refusal_is_stored_by_the_same_transaction_that_ran_the_service(
    alice, alice_conversation, harness_for
):
    # Once, never twice: one BEGIN and one COMMIT, the refusal undone by rolling back
    # to the savepoint around the service's run, not by rolling the click back.
    proposal = dispute_proposal(harness_for, alice_conversation)
    open_dispute_meanwhile(alice)

    with CaptureQueriesContext(connection) as captured:
        first = confirm(alice.user, proposal)

    sql = [q["sql"] for q in captured.captured_queries]
    assert first.response["error"]["code"] == "dispute_already_open"
    assert len([s for s in sql if s.startswith("BEGIN")]) == 1, sql
    assert [s for s in sql if s == "COMMIT"] == ["COMMIT"], sql
    assert not [s for s in sql if s == "ROLLBACK"], sql
    assert [s for s in sql if s.startswith("ROLLBACK TO SAVEPOINT")], sql
    lock = next(i for i, s in enumerate(sql) if 'FROM "tools_proposal"' in s)
    stored = next(i for i, s in enumerate(sql) if s.startswith('INSERT INTO "tools_confirmation"'))
    assert lock < stored and sql.count(sql[lock]) == 1  # claimed once


def test_a_block_refused_after_writing_in_a_fresh_world_is_stored_and_replayed(
    alice, alice_conversation, monkeypatch
):
    # The refusal comes from inside the service's own transaction, after its UPDATE.
    proposal = fresh_block_proposal(alice, alice_conversation)
    spec = CATALOG["block_card"]

    def blocks_and_refuses_inside(ctx, args, *, idempotency_key):
        with transaction.atomic():
            spec.run(ctx, args, idempotency_key=idempotency_key)
            raise Conflict("Refused inside the service, after its write.", code="refused_inside")

    monkeypatch.setitem(CATALOG, "block_card", dataclasses.replace(spec, run=blocks_and_refuses_inside))

    first = confirm(alice.user, proposal)

    assert first.response["error"]["code"] == "refused_inside"
    assert Card.objects.get(last4="4242").status == "active"
    assert_stored_and_replayed(alice.user, proposal, first)
