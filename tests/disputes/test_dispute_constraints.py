"""The database itself keeps one open dispute per transaction and one dispute per key,
so the promises hold even for a writer that skips the service."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from accounts.models import Transaction
from disputes.models import Dispute


def create(txn: Transaction, *, status=Dispute.Status.OPENED, key=None, amount="100.00"):
    return Dispute.objects.create(
        customer=txn.account.customer,
        transaction=txn,
        amount=Decimal(amount),
        reason="not_recognised",
        status=status,
        idempotency_key=key or uuid.uuid4(),
    )


def test_it_declares_the_one_open_dispute_constraint():
    names = {c.name for c in Dispute._meta.constraints}

    assert "one_open_dispute_per_transaction" in names


@pytest.mark.parametrize("second_status", [Dispute.Status.OPENED, Dispute.Status.IN_REVIEW])
def test_it_rejects_a_second_open_dispute_row(alice, second_status):
    txn = Transaction.objects.get(reference="T-1001")
    create(txn, status=Dispute.Status.IN_REVIEW)

    with pytest.raises(IntegrityError), transaction.atomic():
        create(txn, status=second_status)

    assert Dispute.objects.count() == 1


def test_it_allows_an_open_dispute_beside_closed_ones(alice):
    txn = Transaction.objects.get(reference="T-1001")
    create(txn, status=Dispute.Status.RESOLVED)
    create(txn, status=Dispute.Status.REJECTED)

    create(txn, status=Dispute.Status.OPENED)

    assert Dispute.objects.filter(transaction=txn).count() == 3


def test_it_rejects_a_duplicate_idempotency_key(alice):
    key = uuid.uuid4()
    create(Transaction.objects.get(reference="T-1001"), key=key)

    with pytest.raises(IntegrityError), transaction.atomic():
        create(Transaction.objects.get(reference="T-1004"), key=key)

    assert Dispute.objects.count() == 1


@pytest.mark.parametrize("amount", ["0.00", "-1.00"])
def test_it_rejects_an_amount_that_is_not_positive(alice, amount):
    with pytest.raises(IntegrityError), transaction.atomic():
        create(Transaction.objects.get(reference="T-1001"), amount=amount)

    assert not Dispute.objects.exists()
