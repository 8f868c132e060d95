"""dispute_open with an idempotency key: a retry returns the first dispute (G5); the key
cannot be spent on a different dispute."""

from __future__ import annotations

import uuid

import pytest

from disputes.models import Dispute
from disputes.services import dispute_open
from errors import Conflict


def open_dispute(customer, key, reference="T-1001", amount="15000.00", reason="not_recognised"):
    return dispute_open(
        customer=customer, transaction_reference=reference, amount=amount, reason=reason, idempotency_key=key
    )


def test_it_replays_the_same_key_with_the_same_parameters(alice):
    key = uuid.uuid4()
    first = open_dispute(alice, key)

    again = open_dispute(alice, key)

    assert again.replayed is True
    assert again.dispute.pk == first.dispute.pk
    assert again.as_dict() == first.as_dict()
    assert Dispute.objects.count() == 1


def test_it_treats_the_same_amount_and_reference_written_differently_as_a_replay(alice):
    key = uuid.uuid4()
    first = open_dispute(alice, key, reference="T-1001", amount="15000.00")

    again = open_dispute(alice, key, reference=" t-1001", amount="15000")

    assert again.replayed is True
    assert again.dispute.pk == first.dispute.pk
    assert Dispute.objects.count() == 1


def test_it_refuses_the_same_key_with_another_amount(alice):
    key = uuid.uuid4()
    open_dispute(alice, key, amount="15000.00")

    with pytest.raises(Conflict) as caught:
        open_dispute(alice, key, amount="100.00")

    assert caught.value.code == "idempotency_key_reused"
    assert Dispute.objects.get().amount == 15000


def test_it_refuses_the_same_key_with_another_transaction(alice):
    key = uuid.uuid4()
    open_dispute(alice, key, reference="T-1001", amount="100.00")

    with pytest.raises(Conflict) as caught:
        open_dispute(alice, key, reference="T-1004", amount="100.00")

    assert caught.value.code == "idempotency_key_reused"
    assert Dispute.objects.count() == 1


def test_it_refuses_a_key_another_customer_used(alice, bob):
    key = uuid.uuid4()
    open_dispute(alice, key)

    with pytest.raises(Conflict) as caught:
        open_dispute(bob, key, reference="T-2001", amount="7000.00")

    assert caught.value.code == "idempotency_key_reused"
    assert not Dispute.objects.filter(customer=bob).exists()


def test_it_refuses_the_same_key_with_another_reason(alice):
    key = uuid.uuid4()
    open_dispute(alice, key, reason="not_recognised")

    with pytest.raises(Conflict) as caught:
        open_dispute(alice, key, reason="charged_twice")

    assert caught.value.code == "idempotency_key_reused"
