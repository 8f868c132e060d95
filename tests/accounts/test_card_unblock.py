"""card_unblock: support staff unblock a blocked card with a note on record, and nothing
is written without a note; the chat's unblock_card lifts only the customer's own block
(card_unblock_own, tests/accounts/test_card_unblock_own.py)."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import Card, CardUnblock
from accounts.services import card_block, card_unblock
from errors import Conflict, InvalidInput, NotPermitted
from tools.catalog import CATALOG


@pytest.fixture
def blocked_card(alice) -> Card:
    card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())
    return Card.objects.get(account__customer=alice, last4="4242")


def test_it_unblocks_a_card_and_records_who_when_and_why(blocked_card, staff):
    blocked_at, block_key = blocked_card.blocked_at, blocked_card.block_key
    before = timezone.now()

    record = card_unblock(card=blocked_card, note=" Customer found the card. ", staff_user=staff)

    card = Card.objects.get(pk=blocked_card.pk)
    assert card.status == Card.Status.ACTIVE
    assert card.blocked_at is None
    assert card.block_key is None
    assert blocked_card.status == Card.Status.ACTIVE  # the caller's object is current
    stored = CardUnblock.objects.get()
    assert stored == record
    assert (stored.card, stored.staff_user, stored.note) == (card, staff, "Customer found the card.")
    assert before <= stored.created_at <= timezone.now()
    assert (stored.blocked_at, stored.block_key) == (blocked_at, block_key)


def test_it_lets_the_customer_block_the_card_again_afterwards(blocked_card, staff, alice):
    card_unblock(card=blocked_card, note="Found it", staff_user=staff)
    new_key = uuid.uuid4()

    result = card_block(customer=alice, last4="4242", idempotency_key=new_key)

    assert result.changed is True
    assert Card.objects.get(pk=blocked_card.pk).block_key == new_key


@pytest.mark.parametrize("note", ["", "  ", None])
def test_it_refuses_to_unblock_without_a_note(blocked_card, staff, note):
    with pytest.raises(InvalidInput) as caught:
        card_unblock(card=blocked_card, note=note, staff_user=staff)

    assert caught.value.code == "note_required"
    assert "note" in caught.value.message
    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.BLOCKED
    assert not CardUnblock.objects.exists()


def test_it_says_an_active_card_has_nothing_to_unblock(alice, staff):
    card = Card.objects.get(last4="4242")

    with pytest.raises(Conflict) as caught:
        card_unblock(card=card, note="Just in case", staff_user=staff)

    assert caught.value.code == "card_not_blocked"
    assert "4242" in caught.value.message
    assert not CardUnblock.objects.exists()


def test_it_records_one_unblock_when_two_staff_unblock_at_once(blocked_card, staff):
    other = get_user_model().objects.create_superuser(username="boss", password="boss-pw-123")
    stale = Card.objects.get(pk=blocked_card.pk)
    card_unblock(card=blocked_card, note="First", staff_user=staff)

    with pytest.raises(Conflict):
        card_unblock(card=stale, note="Second", staff_user=other)

    assert list(CardUnblock.objects.values_list("note", flat=True)) == ["First"]


def test_it_refuses_a_customer(blocked_card, alice):
    with pytest.raises(NotPermitted):
        card_unblock(card=blocked_card, note="Unblock my own card", staff_user=alice.user)

    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.BLOCKED
    assert not CardUnblock.objects.exists()


def test_it_refuses_staff_without_the_unblock_permission(blocked_card):
    intern = get_user_model().objects.create_user(username="intern", password="pw-intern-1", is_staff=True)

    with pytest.raises(NotPermitted):
        card_unblock(card=blocked_card, note="Please", staff_user=intern)

    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.BLOCKED


def test_the_chat_offers_only_the_customers_own_unblock_and_only_as_a_proposal(alice):
    unblocking = [spec for spec in CATALOG.values() if "unblock" in spec.name]
    assert [spec.name for spec in unblocking] == ["unblock_card"]
    spec = unblocking[0]
    assert spec.effect == "write" and "cards:unblock" in spec.scopes
    assert "card_unblock_own" in spec.run.__code__.co_names  # never the staff service
    assert not [s for s in CATALOG.values() if card_unblock.__name__ in s.run.__code__.co_names]


def test_it_keeps_unblock_records_append_only(blocked_card, staff):
    record = card_unblock(card=blocked_card, note="Found it", staff_user=staff)
    record.note = "Rewritten"

    with pytest.raises(PermissionError):
        record.save()
    with pytest.raises(PermissionError):
        record.delete()
    with pytest.raises(PermissionError):
        CardUnblock.objects.update(note="x")
    with pytest.raises(PermissionError):
        CardUnblock.objects.all().delete()
    assert CardUnblock.objects.get().note == "Found it"


def test_it_does_not_let_a_late_retry_block_again_after_staff_unblocked(alice, staff):
    key = uuid.uuid4()
    card_block(customer=alice, last4="4242", idempotency_key=key)
    card = Card.objects.get(last4="4242")
    card_unblock(card=card, note="customer found the card", staff_user=staff)
    with pytest.raises(Conflict) as error:
        card_block(customer=alice, last4="4242", idempotency_key=key)
    assert error.value.code == "block_reversed"
    assert Card.objects.get(last4="4242").status == "active"
