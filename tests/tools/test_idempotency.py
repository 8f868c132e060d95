"""Stripe's idempotency semantics, on the confirmations that keep them (G5)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from disputes.models import Dispute
from disputes.services import dispute_open
from errors import Conflict
from tests.tools.helpers import fresh_block_proposal
from tools.idempotency import IdempotencyKeyReused, idempotency_replay, idempotency_store
from tools.models import Confirmation
from tools.proposals import proposal_confirm


@pytest.fixture
def proposal(alice, alice_conversation):
    return fresh_block_proposal(alice, alice_conversation)


def store(proposal, key=None, fingerprint="t:abc", response=None) -> Confirmation:
    return idempotency_store(
        proposal=proposal,
        key=key or uuid.uuid4(),
        approver=proposal.customer.user,
        fingerprint=fingerprint,
        response=response or {"status": "executed", "result": {}},
    )


def test_a_click_not_yet_answered_has_nothing_to_replay(proposal):
    # What the phased protocol left mid-way: a confirmation without a response.
    unfinished = Confirmation.objects.create(
        proposal=proposal, idempotency_key=uuid.uuid4(), approver=proposal.customer.user
    )
    assert idempotency_replay(unfinished, customer=proposal.customer, fingerprint="t:abc") is None


def test_a_stored_key_replays_the_stored_response(alice, proposal):
    stored = store(proposal, response={"status": "executed", "result": {"n": 1}})
    assert idempotency_replay(stored, customer=alice, fingerprint="t:abc") == {
        "status": "executed",
        "result": {"n": 1},
    }


def test_the_same_key_with_another_fingerprint_is_an_error(alice, proposal):
    stored = store(proposal)
    with pytest.raises(IdempotencyKeyReused):
        idempotency_replay(stored, customer=alice, fingerprint="t:other")


def test_the_same_key_from_another_customer_is_an_error(bob, proposal):
    stored = store(proposal)
    with pytest.raises(IdempotencyKeyReused):
        idempotency_replay(stored, customer=bob, fingerprint="t:abc")


def test_the_database_refuses_a_second_record_for_a_key(alice, alice_conversation, proposal):
    key = uuid.uuid4()
    store(proposal, key)
    other = fresh_block_proposal(alice, alice_conversation)
    with pytest.raises(IntegrityError), transaction.atomic():
        store(other, key, response={"status": "executed", "result": {"other": True}})


def test_the_database_refuses_a_second_record_for_a_proposal(proposal):
    store(proposal)
    with pytest.raises(IntegrityError), transaction.atomic():
        store(proposal)


def test_the_same_key_with_another_amount_is_an_error_at_the_service(alice):
    key = uuid.uuid4()
    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000",
        reason="not_recognised",
        idempotency_key=key,
    )
    with pytest.raises(Conflict) as error:
        dispute_open(
            customer=alice,
            transaction_reference="T-1001",
            amount="14000",
            reason="not_recognised",
            idempotency_key=key,
        )
    assert error.value.code == "idempotency_key_reused"
    assert Dispute.objects.count() == 1


def test_past_its_retention_a_key_counts_as_new(alice, proposal):
    stored = store(proposal)
    Confirmation.objects.filter(pk=stored.pk).update(replay_until=timezone.now())
    stored.refresh_from_db()
    assert idempotency_replay(stored, customer=alice, fingerprint="t:other") is None


def test_responses_are_kept_at_least_24_hours(proposal):
    stored = store(proposal)
    assert stored.replay_until - stored.created_at >= timedelta(hours=24) - timedelta(seconds=1)


def test_a_confirmation_stores_its_response_under_its_key_and_replays_it_marked(
    alice, alice_conversation, harness_for
):
    proposal = (
        harness_for(alice_conversation, "block my card 4242").call("block_card", {"card": "4242"}).proposal
    )
    first = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    record = Confirmation.objects.get()
    assert record.idempotency_key.version == 4
    assert record.fingerprint == f"block_card:{proposal.args_digest}"
    assert record.response == first.response
    second = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    assert (first.replayed, second.replayed) == (False, True)
    assert second.response == first.response


def test_a_domain_error_is_stored_and_replayed_like_a_success(alice, alice_conversation, harness_for):
    proposal = (
        harness_for(alice_conversation, "dispute T-1001")
        .call("raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"})
        .proposal
    )
    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    )
    first = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    second = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    assert first.response["error"]["code"] == "dispute_already_open"
    assert Confirmation.objects.get().response == first.response == second.response
    assert second.replayed


def test_the_purge_command_forgets_only_responses_past_their_retention(alice, alice_conversation, capsys):
    old = store(fresh_block_proposal(alice, alice_conversation))
    fresh = store(fresh_block_proposal(alice, alice_conversation))
    Confirmation.objects.filter(pk=old.pk).update(replay_until=timezone.now() - timedelta(hours=1))
    call_command("purge_idempotency")
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert (old.response, old.replay_until) == (None, None)
    assert fresh.response == {"status": "executed", "result": {}}
    assert Confirmation.objects.count() == 2  # who clicked stays on the record
    assert "Purged 1 stored response" in capsys.readouterr().out
