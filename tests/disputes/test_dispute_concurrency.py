"""Simultaneous confirmations of disputes on one transaction: the database decides,
so exactly one dispute exists and no "database is locked" reaches anyone."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

import pytest
from django.db import connection

from accounts.errors import Conflict
from disputes.models import Dispute
from disputes.services import DisputeResult, dispute_open

THREADS = 10


def run_at_once(calls: list[Callable[[], object]]) -> tuple[list[object], list[BaseException]]:
    """Start every call at the same moment, each in its own thread with its own connection."""
    barrier = threading.Barrier(len(calls), timeout=30)
    lock = threading.Lock()
    results: list[object] = []
    errors: list[BaseException] = []

    def worker(call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcome = call()
            with lock:
                results.append(outcome)
        except BaseException as exc:  # every failure is reported to the test
            with lock:
                errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a worker hung"
    return results, errors


def opener(customer, key: uuid.UUID) -> Callable[[], DisputeResult]:
    return lambda: dispute_open(customer=customer, transaction_reference="T-1001",
                                amount="15000.00", reason="Not mine", idempotency_key=key)


@pytest.mark.django_db(transaction=True)
def test_it_opens_one_dispute_when_ten_confirmations_race(alice):
    results, errors = run_at_once([opener(alice, uuid.uuid4()) for _ in range(THREADS)])

    assert len(results) == 1
    assert len(errors) == THREADS - 1
    assert all(isinstance(e, Conflict) for e in errors), errors
    assert {e.code for e in errors} == {"dispute_already_open"}
    dispute = Dispute.objects.get()
    assert results[0].dispute.reference == dispute.reference
    assert all(dispute.reference in e.message for e in errors)


@pytest.mark.django_db(transaction=True)
def test_it_opens_one_dispute_when_one_key_is_retried_ten_times_at_once(alice):
    key = uuid.uuid4()

    results, errors = run_at_once([opener(alice, key) for _ in range(THREADS)])

    assert errors == []
    assert len(results) == THREADS
    dispute = Dispute.objects.get()
    assert dispute.idempotency_key == key
    assert {r.dispute.reference for r in results} == {dispute.reference}
    assert sorted(r.replayed for r in results) == [False] + [True] * (THREADS - 1)
