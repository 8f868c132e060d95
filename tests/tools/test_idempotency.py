"""Stripe's idempotency semantics, on the records themselves (G5)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.errors import Conflict
from disputes.models import Dispute
from disputes.services import dispute_open
from tools.idempotency import (
    IdempotencyKeyReused,
    InProgress,
    idempotency_begin,
    idempotent_run,
)
from tools.models import IdempotencyRecord


def test_a_completed_key_replays_the_stored_response(alice):
    key, calls = uuid.uuid4(), []

    def run():
        calls.append(1)
        return {"n": len(calls)}

    first = idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=run)
    second = idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=run)
    assert first == ({"status": "executed", "result": {"n": 1}}, False)
    assert second == ({"status": "executed", "result": {"n": 1}}, True)
    assert calls == [1]


def test_the_same_key_with_another_fingerprint_is_an_error(alice):
    key = uuid.uuid4()
    idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=lambda: {})
    with pytest.raises(IdempotencyKeyReused):
        idempotent_run(key=key, customer=alice, fingerprint="t:other", run=lambda: {})


def test_the_same_key_from_another_customer_is_an_error(alice, bob):
    key = uuid.uuid4()
    idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=lambda: {})
    with pytest.raises(IdempotencyKeyReused):
        idempotent_run(key=key, customer=bob, fingerprint="t:abc", run=lambda: {})


def test_the_same_key_with_another_amount_is_an_error_at_the_service(alice):
    key = uuid.uuid4()
    dispute_open(customer=alice, transaction_reference="T-1001", amount="15000",
                 reason="not_recognised", idempotency_key=key)
    with pytest.raises(Conflict) as error:
        dispute_open(customer=alice, transaction_reference="T-1001", amount="14000",
                     reason="not_recognised", idempotency_key=key)
    assert error.value.code == "idempotency_key_reused"
    assert Dispute.objects.count() == 1


def test_in_progress_is_a_conflict_never_a_second_execution(alice):
    key = uuid.uuid4()
    assert idempotency_begin(key=key, customer=alice, fingerprint="t:abc") is None
    ran = []
    with pytest.raises(InProgress):
        idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=lambda: ran.append(1))
    assert ran == []


def test_a_lapsed_lease_may_be_taken_over(alice):
    key = uuid.uuid4()
    idempotency_begin(key=key, customer=alice, fingerprint="t:abc")
    IdempotencyRecord.objects.filter(key=key).update(
        locked_until=timezone.now() - timedelta(seconds=1))
    response, replayed = idempotent_run(key=key, customer=alice, fingerprint="t:abc",
                                        run=lambda: {"ok": True})
    assert response["result"] == {"ok": True} and not replayed


def test_an_expired_key_counts_as_new(alice):
    key, calls = uuid.uuid4(), []
    idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=lambda: calls.append(1) or {})
    IdempotencyRecord.objects.filter(key=key).update(expires_at=timezone.now())
    idempotent_run(key=key, customer=alice, fingerprint="t:other",
                   run=lambda: calls.append(2) or {})
    assert calls == [1, 2]


def test_records_are_kept_at_least_24_hours(alice, settings):
    idempotent_run(key=uuid.uuid4(), customer=alice, fingerprint="t:abc", run=lambda: {})
    record = IdempotencyRecord.objects.get()
    assert record.expires_at - record.created_at >= timedelta(hours=24) - timedelta(seconds=1)


def test_a_domain_error_is_stored_and_replayed_like_a_success(alice):
    from accounts.errors import RuleViolation

    key = uuid.uuid4()

    def run():
        raise RuleViolation("no", code="nope")

    first, _ = idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=run)
    second, replayed = idempotent_run(key=key, customer=alice, fingerprint="t:abc",
                                      run=lambda: {"would": "differ"})
    assert first == second == {"status": "failed", "error": {"code": "nope", "message": "no"}}
    assert replayed


def test_the_purge_command_deletes_only_expired_records(alice, capsys):
    old, fresh = uuid.uuid4(), uuid.uuid4()
    for key in (old, fresh):
        idempotent_run(key=key, customer=alice, fingerprint="t:abc", run=lambda: {})
    IdempotencyRecord.objects.filter(key=old).update(expires_at=timezone.now() - timedelta(hours=1))
    call_command("purge_idempotency")
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [fresh]
    assert "Purged 1 expired" in capsys.readouterr().out
