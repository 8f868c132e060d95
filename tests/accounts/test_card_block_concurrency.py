"""Simultaneous confirmations of a card block: exactly one changes the card, none sees
"database is locked" (WAL, BEGIN IMMEDIATE and a busy timeout on SQLite)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

import pytest
from django.db import connection

from accounts.models import Card
from accounts.services import CardBlockResult, card_block

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


@pytest.mark.django_db(transaction=True)
def test_it_blocks_the_card_exactly_once_when_confirmed_twice_at_once(alice):
    keys = [uuid.uuid4() for _ in range(THREADS)]

    results, errors = run_at_once(
        [lambda key=key: card_block(customer=alice, last4="4242", idempotency_key=key)
         for key in keys]
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
