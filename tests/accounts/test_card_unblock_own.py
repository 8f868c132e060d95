"""card_unblock_own: a customer unblocks a card they blocked themselves — never one the
bank blocked, never someone else's — once per confirmation key, on the record."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Card, CardUnblock
from accounts.services import card_block, card_unblock, card_unblock_own
from errors import Conflict, InvalidInput, NotFound, RuleViolation


@pytest.fixture
def self_blocked(alice) -> Card:
    card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())
    return Card.objects.get(account__customer=alice, last4="4242")


def bank_block(card: Card) -> None:
    Card.objects.filter(pk=card.pk).update(
        status="blocked", blocked_at=timezone.now(), blocked_by=Card.BlockedBy.BANK
    )


def test_a_customers_block_says_the_customer_made_it(self_blocked):
    assert self_blocked.blocked_by == Card.BlockedBy.CUSTOMER


def test_it_unblocks_the_customers_own_block_and_records_it(alice, self_blocked):
    key = uuid.uuid4()
    blocked_at, block_key = self_blocked.blocked_at, self_blocked.block_key

    result = card_unblock_own(customer=alice, last4="4242", idempotency_key=key)

    card = Card.objects.get(pk=self_blocked.pk)
    assert (card.status, card.blocked_at, card.block_key, card.blocked_by) == (
        Card.Status.ACTIVE,
        None,
        None,
        "",
    )
    assert result.as_dict() == {
        "card": "4242",
        "label": "Visa •••• 4242",
        "status": "active",
        "changed": True,
    }
    record = CardUnblock.objects.get()
    assert (record.card, record.staff_user, record.unblock_key) == (card, None, key)
    assert (record.blocked_at, record.block_key) == (blocked_at, block_key)


def test_it_refuses_a_card_the_bank_blocked(alice):
    card = Card.objects.get(last4="4242")
    bank_block(card)

    with pytest.raises(RuleViolation) as caught:
        card_unblock_own(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    assert caught.value.code == "card_blocked_by_bank"
    assert "bank" in caught.value.message
    assert Card.objects.get(pk=card.pk).status == Card.Status.BLOCKED
    assert not CardUnblock.objects.exists()


def test_a_blocked_card_without_a_record_of_who_blocked_it_is_the_banks(alice):
    Card.objects.filter(last4="4242").update(status="blocked", blocked_at=timezone.now())

    with pytest.raises(RuleViolation):
        card_unblock_own(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED


def test_someone_elses_card_answers_like_a_missing_one(alice, bob):
    card_block(customer=bob, last4="1111", idempotency_key=uuid.uuid4())

    with pytest.raises(NotFound):
        card_unblock_own(customer=alice, last4="1111", idempotency_key=uuid.uuid4())
    with pytest.raises(NotFound):
        card_unblock_own(customer=alice, last4="9999", idempotency_key=uuid.uuid4())

    assert Card.objects.get(last4="1111").status == Card.Status.BLOCKED


def test_an_active_card_is_a_clear_no_op(alice):
    result = card_unblock_own(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    assert result.changed is False
    assert result.as_dict()["status"] == "active"
    assert not CardUnblock.objects.exists()


def test_a_retry_with_the_same_key_answers_unblocked_once(alice, self_blocked):
    key = uuid.uuid4()
    first = card_unblock_own(customer=alice, last4="4242", idempotency_key=key)

    again = card_unblock_own(customer=alice, last4="4242", idempotency_key=key)

    assert again.as_dict() == first.as_dict()
    assert CardUnblock.objects.count() == 1


def test_a_late_retry_does_not_unblock_a_card_blocked_again_since(alice, self_blocked):
    key = uuid.uuid4()
    card_unblock_own(customer=alice, last4="4242", idempotency_key=key)
    card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    card_unblock_own(customer=alice, last4="4242", idempotency_key=key)

    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED
    assert CardUnblock.objects.count() == 1


def test_a_key_used_for_another_card_is_refused(alice, self_blocked):
    key = uuid.uuid4()
    card_unblock_own(customer=alice, last4="4242", idempotency_key=key)
    card_block(customer=alice, last4="5505", idempotency_key=uuid.uuid4())

    with pytest.raises(Conflict) as caught:
        card_unblock_own(customer=alice, last4="5505", idempotency_key=key)

    assert caught.value.code == "idempotency_key_reused"
    assert Card.objects.get(last4="5505").status == Card.Status.BLOCKED


def test_it_needs_a_key(alice, self_blocked):
    with pytest.raises(InvalidInput):
        card_unblock_own(customer=alice, last4="4242", idempotency_key="not-a-uuid")


def test_a_late_block_retry_after_the_customer_unblocked_does_not_block_again(alice):
    key = uuid.uuid4()
    card_block(customer=alice, last4="4242", idempotency_key=key)
    card_unblock_own(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    with pytest.raises(Conflict) as caught:
        card_block(customer=alice, last4="4242", idempotency_key=key)

    assert caught.value.code == "block_reversed"
    assert "support staff" not in caught.value.message
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE


def test_staff_unblocking_clears_who_blocked(self_blocked, staff):
    card_unblock(card=self_blocked, note="Found it", staff_user=staff)

    assert Card.objects.get(pk=self_blocked.pk).blocked_by == ""


def test_the_database_keeps_a_customer_unblock_to_its_key_and_a_staff_one_to_a_note(self_blocked, staff):
    with pytest.raises(IntegrityError), transaction.atomic():
        CardUnblock.objects.create(card=self_blocked, blocked_at=self_blocked.blocked_at)
    with pytest.raises(IntegrityError), transaction.atomic():
        CardUnblock.objects.create(card=self_blocked, blocked_at=self_blocked.blocked_at, staff_user=staff)
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(pk=self_blocked.pk).update(block_key=None)
