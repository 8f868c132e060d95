"""On PostgreSQL the staff records are append-only in the database itself: even raw
SQL cannot rewrite or delete a review step or a card unblock."""

from __future__ import annotations

import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from accounts.models import Card, CardUnblock
from accounts.services import card_block, card_unblock
from disputes.models import DisputeReview
from disputes.services import dispute_review

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize("table", ["disputes_disputereview", "accounts_cardunblock"])
def test_it_refuses_raw_sql_that_rewrites_a_staff_record(dispute, staff, alice, table):
    dispute_review(dispute=dispute, to_status="in_review", note="Looking", staff_user=staff)
    card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())
    card_unblock(card=Card.objects.get(last4="4242"), note="Found it", staff_user=staff)

    for statement in (f"UPDATE {table} SET note = 'rewritten'", f"DELETE FROM {table}"):  # noqa: S608
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement)

    assert DisputeReview.objects.get().note == "Looking"
    assert CardUnblock.objects.get().note == "Found it"
