"""Simultaneous confirmations of a card block: exactly one changes the card, none sees
"database is locked" (WAL, BEGIN IMMEDIATE and a busy timeout on SQLite)."""

from __future__ import annotations

import uuid

import pytest

from accounts.models import Card
from accounts.services import CardBlockResult, card_block
from tests.threads import run_at_once

THREADS = 10


@pytest.mark.django_db(transaction=True)
def test_it_blocks_the_card_exactly_once_when_confirmed_twice_at_once(alice):
    keys = [uuid.uuid4() for _ in range(THREADS)]

    results, errors = run_at_once(
        [lambda key=key: card_block(customer=alice, last4="4242", idempotency_key=key) for key in keys]
    )

    assert errors == []
    assert len(results) == THREADS
    assert all(isinstance(r, CardBlockResult) for r in results)
    winners = [r for r in results if r.changed]
    assert len(winners) == 1
    card = Card.objects.get(last4="4242")
    assert card.status == Card.Status.BLOCKED
    assert card.block_key == winners[0].card.block_key
    assert card.block_key in keys
    assert {r.card.blocked_at for r in results} == {card.blocked_at}
