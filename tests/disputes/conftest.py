"""Fixtures for support staff's side of disputes: clients per role, and disputes
made the way customers make them — through the guarded harness and a click."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from disputes.models import Dispute
from disputes.services import dispute_open
from tests.disputes.helpers import dispute_through_chat


@pytest.fixture
def dispute(alice) -> Dispute:
    """A dispute opened without the chat: no proposal, no confirmation on record."""
    return dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000.00",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    ).dispute


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def customer_client(client, alice):
    client.force_login(alice.user)
    return client


@pytest.fixture
def bare_staff_client(client, db):
    """Staff, but in no group: may log in to admin and do nothing there."""
    user = get_user_model().objects.create_user(username="intern", password="intern-pw-123", is_staff=True)
    client.force_login(user)
    return client


@pytest.fixture
def chat_dispute():
    return dispute_through_chat
