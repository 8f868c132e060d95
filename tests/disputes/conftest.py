"""Fixtures for support staff's side of disputes: clients per role, and disputes
made the way customers make them — through the guarded harness and a click."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from bankbot.models import Conversation, Message
from disputes.models import Dispute
from disputes.services import dispute_open
from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_for
from tools.models import Proposal
from tools.proposals import proposal_confirm


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


def dispute_through_chat(
    conversation: Conversation, text: str, *, merchant: str, transaction: str, amount: str, reason: str
) -> Dispute:
    """What a customer does in the chat, minus the model: say it, let the harness
    look the transaction up and propose the dispute, then press Confirm."""
    Message.objects.create(conversation=conversation, role=Message.Role.CUSTOMER, text=text)
    ctx = action_context_for(
        conversation.customer.user,
        conversation,
        mandate=mandate_for(customer=conversation.customer, text=text),
    )
    harness = GuardedHarness(ctx)
    harness.call("find_transactions", {"merchant": merchant, "amount": None, "month": None})
    outcome = harness.call("raise_dispute", {"transaction": transaction, "amount": amount, "reason": reason})
    assert outcome.status == "awaiting_confirmation", outcome.message()
    proposal: Proposal = outcome.proposal
    Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=f"Please check and confirm: {proposal.summary}",
    )
    result = proposal_confirm(
        user=conversation.customer.user, public_id=proposal.public_id, digest=proposal.args_digest
    )
    assert result.response["status"] == "executed", result.response
    return Dispute.objects.get(reference=result.response["result"]["dispute_id"])


@pytest.fixture
def chat_dispute():
    return dispute_through_chat
