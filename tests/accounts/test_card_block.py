"""card_block: blocks one of the customer's cards, once, and says when nothing changed."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Account, Card
from accounts.services import card_block
from errors import Conflict, InvalidInput, NotFound


def test_it_blocks_an_active_card(alice):
    key = uuid.uuid4()
    before = timezone.now()

    result = card_block(customer=alice, last4="4242", idempotency_key=key)

    card = Card.objects.get(account__customer=alice, last4="4242")
    assert result.changed is True
    assert card.status == Card.Status.BLOCKED
    assert before <= card.blocked_at <= timezone.now()
    assert card.block_key == key
    assert result.as_dict()["status"] == "blocked"
    assert result.as_dict()["changed"] is True
    assert Card.objects.get(account__customer=alice, last4="5505").status == Card.Status.ACTIVE


def test_it_leaves_an_already_blocked_card_alone_and_says_so(alice):
    first_key = uuid.uuid4()
    card_block(customer=alice, last4="4242", idempotency_key=first_key)
    blocked_at = Card.objects.get(last4="4242").blocked_at

    result = card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    card = Card.objects.get(last4="4242")
    assert result.changed is False
    assert result.as_dict()["changed"] is False
    assert card.status == Card.Status.BLOCKED
    assert card.blocked_at == blocked_at
    assert card.block_key == first_key


def test_it_answers_a_replay_of_the_same_key_as_the_block_it_made(alice):
    key = uuid.uuid4()
    card_block(customer=alice, last4="4242", idempotency_key=key)
    # Move the stored time back, so a second write would be visible.
    earlier = timezone.now() - timedelta(minutes=5)
    Card.objects.filter(last4="4242").update(blocked_at=earlier)

    result = card_block(customer=alice, last4="4242", idempotency_key=key)

    card = Card.objects.get(last4="4242")
    assert result.changed is True
    assert card.blocked_at == earlier
    assert card.block_key == key


def test_it_reports_bobs_card_like_a_missing_one(alice, bob):
    def message(last4: str) -> tuple[str, str]:
        with pytest.raises(NotFound) as caught:
            card_block(customer=alice, last4=last4, idempotency_key=uuid.uuid4())
        return caught.value.code, caught.value.message.replace(last4, "<card>")

    assert message("1111") == message("9999")
    assert Card.objects.get(account__customer=bob, last4="1111").status == Card.Status.ACTIVE


@pytest.mark.parametrize("key", ["not-a-uuid", "8d0e7c4e-4b0f-4c1e-9a57-3f6f3f0a2b1c", None, 42])
def test_it_refuses_a_key_that_is_not_a_uuid(alice, key):
    with pytest.raises(InvalidInput) as caught:
        card_block(customer=alice, last4="4242", idempotency_key=key)

    assert caught.value.code == "missing_idempotency_key"
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE


def test_it_refuses_an_ambiguous_last4_with_a_clear_error(alice):
    second = Account.objects.create(customer=alice, number="KZ86125KZT5004100199")
    Card.objects.create(account=second, last4="4242")

    with pytest.raises(InvalidInput) as caught:
        card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())

    assert caught.value.code == "ambiguous_card"


def test_it_refuses_a_key_already_used_for_another_card(alice):
    key = uuid.uuid4()
    card_block(customer=alice, last4="4242", idempotency_key=key)

    with pytest.raises(Conflict) as caught:
        card_block(customer=alice, last4="5505", idempotency_key=key)

    assert caught.value.code == "idempotency_key_reused"
    assert Card.objects.get(last4="5505").status == Card.Status.ACTIVE
