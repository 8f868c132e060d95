"""dispute_open after losing a race: the check passed, but another worker committed
first, so the INSERT hits a unique constraint. On SQLite, BEGIN IMMEDIATE serializes
writers and the threads never reach this path, so these tests stage it by hiding the
winner from the first look, as READ COMMITTED on PostgreSQL can."""

from __future__ import annotations

import uuid
from unittest import mock

import pytest

from disputes import services
from disputes.models import Dispute
from disputes.services import dispute_open
from errors import Conflict


def open_dispute(customer, key, amount="15000.00"):
    return dispute_open(
        customer=customer,
        transaction_reference="T-1001",
        amount=amount,
        reason="not_recognised",
        idempotency_key=key,
    )


def blind_first_time(real):
    """Wrap a lookup so its first call sees nothing, like a snapshot taken before the
    other worker committed."""
    calls = []

    def wrapper(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            return None
        return real(*args, **kwargs)

    return wrapper


def test_it_answers_conflict_when_another_confirmation_won(alice):
    winner = open_dispute(alice, uuid.uuid4()).dispute

    with (
        mock.patch.object(services, "dispute_check", side_effect=blind_first_time(services.dispute_check)),
        pytest.raises(Conflict) as caught,
    ):
        open_dispute(alice, uuid.uuid4(), amount="100.00")

    assert caught.value.code == "dispute_already_open"
    assert winner.reference in caught.value.message
    assert Dispute.objects.count() == 1


def test_it_answers_a_replay_when_its_own_retry_won(alice):
    key = uuid.uuid4()
    winner = open_dispute(alice, key).dispute

    with (
        mock.patch.object(
            services, "_dispute_for_key", side_effect=blind_first_time(services._dispute_for_key)
        ),
        mock.patch.object(services, "dispute_check", side_effect=blind_first_time(services.dispute_check)),
    ):
        again = open_dispute(alice, key)

    assert again.replayed is True
    assert again.dispute.pk == winner.pk
    assert Dispute.objects.count() == 1


def test_it_answers_a_replay_when_its_own_retry_committed_just_before_the_check(alice):
    key = uuid.uuid4()
    winner = open_dispute(alice, key).dispute

    # The first look misses the retry that committed; the rule check then sees its
    # open dispute. That dispute is this key's own: a replay, not a conflict.
    with mock.patch.object(
        services, "_dispute_for_key", side_effect=blind_first_time(services._dispute_for_key)
    ):
        again = open_dispute(alice, key)

    assert again.replayed is True
    assert again.dispute.pk == winner.pk
    assert Dispute.objects.count() == 1
