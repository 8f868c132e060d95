"""Stripe's idempotency semantics, on the records themselves (G5)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.errors import Conflict
from disputes.models import Dispute
from disputes.services import dispute_open
from tools.idempotency import IdempotencyKeyReused, idempotency_replay, idempotency_store
from tools.models import IdempotencyRecord
from tools.proposals import proposal_confirm


def store(key, customer, fingerprint="t:abc", response=None):
    idempotency_store(key=key, customer=customer, fingerprint=fingerprint,
                      response=response or {"status": "executed", "result": {}})


def test_a_new_key_has_nothing_to_replay(alice):
    assert idempotency_replay(key=uuid.uuid4(), customer=alice, fingerprint="t:abc") is None


def test_a_stored_key_replays_the_stored_response(alice):
    key = uuid.uuid4()
    store(key, alice, response={"status": "executed", "result": {"n": 1}})
    assert idempotency_replay(key=key, customer=alice, fingerprint="t:abc") == {
        "status": "executed", "result": {"n": 1}}


def test_the_same_key_with_another_fingerprint_is_an_error(alice):
    key = uuid.uuid4()
    store(key, alice)
    with pytest.raises(IdempotencyKeyReused):
        idempotency_replay(key=key, customer=alice, fingerprint="t:other")


def test_the_same_key_from_another_customer_is_an_error(alice, bob):
    key = uuid.uuid4()
    store(key, alice)
    with pytest.raises(IdempotencyKeyReused):
        idempotency_replay(key=key, customer=bob, fingerprint="t:abc")


def test_the_database_refuses_a_second_record_for_a_key(alice):
    key = uuid.uuid4()
    store(key, alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        store(key, alice, response={"status": "executed", "result": {"other": True}})


def test_the_same_key_with_another_amount_is_an_error_at_the_service(alice):
    key = uuid.uuid4()
    dispute_open(customer=alice, transaction_reference="T-1001", amount="15000",
                 reason="not_recognised", idempotency_key=key)
    with pytest.raises(Conflict) as error:
        dispute_open(customer=alice, transaction_reference="T-1001", amount="14000",
                     reason="not_recognised", idempotency_key=key)
    assert error.value.code == "idempotency_key_reused"
    assert Dispute.objects.count() == 1


def test_an_expired_key_counts_as_new(alice):
    key = uuid.uuid4()
    store(key, alice)
    IdempotencyRecord.objects.filter(key=key).update(expires_at=timezone.now())
    assert idempotency_replay(key=key, customer=alice, fingerprint="t:other") is None
    store(key, alice, fingerprint="t:other")
    assert IdempotencyRecord.objects.get().fingerprint == "t:other"


def test_records_are_kept_at_least_24_hours(alice):
    store(uuid.uuid4(), alice)
    record = IdempotencyRecord.objects.get()
    assert record.expires_at - record.created_at >= timedelta(hours=24) - timedelta(seconds=1)


def test_a_confirmation_stores_its_response_under_its_key_and_replays_it_marked(
        alice, alice_conversation, harness_for):
    proposal = harness_for(alice_conversation, "block my card 4242").call(
        "block_card", {"card": "4242"}).proposal
    first = proposal_confirm(user=alice.user, public_id=proposal.public_id,
                             digest=proposal.args_digest)
    record = IdempotencyRecord.objects.get()
    assert record.key == proposal.confirmation.idempotency_key
    assert record.fingerprint == f"block_card:{proposal.args_digest}"
    assert record.response == first.response
    second = proposal_confirm(user=alice.user, public_id=proposal.public_id,
                              digest=proposal.args_digest)
    assert (first.replayed, second.replayed) == (False, True)
    assert second.response == first.response


def test_a_domain_error_is_stored_and_replayed_like_a_success(
        alice, alice_conversation, harness_for):
    proposal = harness_for(alice_conversation, "dispute T-1001").call(
        "raise_dispute", {"transaction": "T-1001", "amount": "15000.00",
                          "reason": "not_recognised"}).proposal
    dispute_open(customer=alice, transaction_reference="T-1001", amount="15000",
                 reason="not_recognised", idempotency_key=uuid.uuid4())
    first = proposal_confirm(user=alice.user, public_id=proposal.public_id,
                             digest=proposal.args_digest)
    second = proposal_confirm(user=alice.user, public_id=proposal.public_id,
                              digest=proposal.args_digest)
    assert first.response["error"]["code"] == "dispute_already_open"
    assert IdempotencyRecord.objects.get().response == first.response == second.response
    assert second.replayed


def test_the_purge_command_deletes_only_expired_records(alice, capsys):
    old, fresh = uuid.uuid4(), uuid.uuid4()
    for key in (old, fresh):
        store(key, alice)
    IdempotencyRecord.objects.filter(key=old).update(expires_at=timezone.now() - timedelta(hours=1))
    call_command("purge_idempotency")
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [fresh]
    assert "Purged 1 expired" in capsys.readouterr().out
