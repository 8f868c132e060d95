"""dispute_open: opens a dispute on one of the customer's transactions, or says why not."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import pytest

from accounts.models import Transaction
from disputes.models import Dispute
from disputes.services import dispute_open
from errors import Conflict, InvalidInput, NotFound, RuleViolation
from tests.factories import days_ago


def open_dispute(customer, reference="T-1001", amount="15000.00", reason="not_recognised", key=None):
    return dispute_open(
        customer=customer,
        transaction_reference=reference,
        amount=amount,
        reason=reason,
        idempotency_key=key or uuid.uuid4(),
    )


def test_it_opens_a_dispute(alice):
    key = uuid.uuid4()

    result = open_dispute(alice, amount="15000.00", key=key)

    dispute = Dispute.objects.get()
    assert result.replayed is False
    assert result.dispute.pk == dispute.pk
    assert re.fullmatch(r"D-\d+", dispute.reference)
    assert dispute.status == Dispute.Status.OPENED
    assert isinstance(dispute.amount, Decimal)
    assert dispute.amount == Decimal("15000.00")
    assert dispute.idempotency_key == key
    assert dispute.customer == alice
    assert dispute.transaction.reference == "T-1001"
    assert dispute.reason == "not_recognised"
    assert result.as_dict() == {
        "dispute_id": dispute.reference,
        "status": "opened",
        "amount_kzt": "15000.00",
        "transaction": "T-1001",
    }


def test_it_opens_a_dispute_for_part_of_the_transaction(alice):
    result = open_dispute(alice, amount="2500")

    assert result.dispute.amount == Decimal("2500.00")


@pytest.mark.parametrize(
    "amount",
    [
        0,
        "0",
        "0.00",
        "-5",
        Decimal("-1"),
        "abc",
        "NaN",
        Decimal("NaN"),
        "Infinity",
        100.5,
        "10.001",
        "",
        None,
    ],
)
def test_it_refuses_an_amount_that_is_not_a_positive_two_decimal_number(alice, amount):
    with pytest.raises(InvalidInput) as caught:
        open_dispute(alice, amount=amount)

    assert caught.value.code == "invalid_amount"
    assert caught.value.message
    assert not Dispute.objects.exists()


def test_it_refuses_more_than_the_transaction_amount(alice):
    with pytest.raises(RuleViolation) as caught:
        open_dispute(alice, reference="T-1001", amount="15000.01")

    assert caught.value.code == "amount_exceeds_transaction"
    assert "15,000.01\u00a0₸" in caught.value.message  # written the way pages write it
    assert not Dispute.objects.exists()


def test_it_refuses_a_transaction_older_than_the_window(alice):
    with pytest.raises(RuleViolation) as caught:
        open_dispute(alice, reference="T-1002", amount="8000.00")

    assert caught.value.code == "dispute_window_closed"
    assert "120 days" in caught.value.message
    assert "T-1002" in caught.value.message
    assert not Dispute.objects.exists()


def test_it_accepts_a_transaction_just_inside_the_window(alice):
    Transaction.objects.create(
        account=alice.accounts.get(),
        reference="T-1119",
        posted_at=days_ago(119),
        amount=Decimal("500.00"),
        merchant="Small",
        description="Groceries",
    )
    Transaction.objects.create(
        account=alice.accounts.get(),
        reference="T-1121",
        posted_at=days_ago(121),
        amount=Decimal("500.00"),
        merchant="Small",
        description="Groceries",
    )

    assert open_dispute(alice, reference="T-1119", amount="500.00").dispute.status == "opened"
    with pytest.raises(RuleViolation):
        open_dispute(alice, reference="T-1121", amount="500.00")


@pytest.mark.parametrize("status", [Dispute.Status.OPENED, Dispute.Status.IN_REVIEW])
def test_it_refuses_a_second_open_dispute_on_a_transaction(alice, status):
    first = open_dispute(alice).dispute
    Dispute.objects.filter(pk=first.pk).update(status=status)

    with pytest.raises(Conflict) as caught:
        open_dispute(alice, amount="100.00")

    assert caught.value.code == "dispute_already_open"
    assert first.reference in caught.value.message
    assert Dispute.objects.count() == 1


@pytest.mark.parametrize("status", [Dispute.Status.RESOLVED, Dispute.Status.REJECTED])
def test_it_opens_a_new_dispute_once_the_last_one_is_closed(alice, status):
    first = open_dispute(alice).dispute
    Dispute.objects.filter(pk=first.pk).update(status=status)

    second = open_dispute(alice, amount="100.00").dispute

    assert second.pk != first.pk
    assert second.reference != first.reference
    assert second.status == Dispute.Status.OPENED
    assert Dispute.objects.count() == 2


def test_it_reports_bobs_transaction_like_a_missing_one(alice, bob):
    def message(reference: str) -> tuple[str, str]:
        with pytest.raises(NotFound) as caught:
            open_dispute(alice, reference=reference, amount="100.00")
        return caught.value.code, caught.value.message.replace(reference, "<ref>")

    assert message("T-2001") == message("T-9999")
    assert not Dispute.objects.exists()


def test_it_does_not_reveal_bobs_open_dispute(alice, bob):
    bobs = open_dispute(bob, reference="T-2001", amount="7000.00").dispute

    with pytest.raises(NotFound) as caught:
        open_dispute(alice, reference="T-2001", amount="100.00")

    assert bobs.reference not in caught.value.message
    assert Dispute.objects.count() == 1


@pytest.mark.parametrize(
    "reason", ["", None, "I did not buy this", "not_recognised; also refund T-2001", "NOT_RECOGNISED"]
)
def test_it_takes_only_a_reason_code(alice, reason):
    """Free text is never stored: a model or a merchant could write it (G7)."""
    with pytest.raises(InvalidInput) as caught:
        open_dispute(alice, reason=reason)

    assert caught.value.code == "invalid_reason"
    assert "charged_twice" in caught.value.message
    assert not Dispute.objects.exists()


def test_the_database_refuses_a_reason_that_is_not_a_code(alice):
    from django.db import IntegrityError, transaction

    from accounts.models import Transaction

    txn = Transaction.objects.get(reference="T-1001")
    with pytest.raises(IntegrityError), transaction.atomic():
        Dispute.objects.create(
            customer=alice,
            transaction=txn,
            amount=txn.amount,
            reason="call +77000000000",
            idempotency_key=uuid.uuid4(),
        )


# Named ids: a uuid4 in the test's name would differ between pytest-xdist workers' collections.
@pytest.mark.parametrize(
    "key", ["not-a-uuid", str(uuid.uuid4()), None], ids=["not-a-uuid", "uuid-as-text", "None"]
)
def test_it_refuses_a_key_that_is_not_a_uuid(alice, key):
    with pytest.raises(InvalidInput) as caught:
        dispute_open(
            customer=alice,
            transaction_reference="T-1001",
            amount="100.00",
            reason="not_recognised",
            idempotency_key=key,
        )

    assert caught.value.code == "missing_idempotency_key"
    assert not Dispute.objects.exists()
