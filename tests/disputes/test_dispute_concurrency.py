"""Simultaneous confirmations of disputes on one transaction: the database decides,
so exactly one dispute exists and no "database is locked" reaches anyone."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from disputes.models import Dispute
from disputes.services import DisputeResult, dispute_open
from errors import Conflict
from tests.threads import run_at_once

THREADS = 10


def opener(customer, key: uuid.UUID) -> Callable[[], DisputeResult]:
    return lambda: dispute_open(
        customer=customer,
        transaction_reference="T-1001",
        amount="15000.00",
        reason="not_recognised",
        idempotency_key=key,
    )


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
