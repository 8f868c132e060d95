"""Helpers for the harness's tests."""

from __future__ import annotations

from accounts.models import Card
from tools.catalog import CATALOG
from tools.catalog.block_card import BlockCardArgs
from tools.context import action_context_for
from tools.models import Proposal
from tools.proposals import proposal_create


def fresh_block_proposal(customer, conversation, last4: str = "4242") -> Proposal:
    """A new proposal to block the card, the card active again: one generated
    case's world, made without a model or a mandate (the click is under test)."""
    Card.objects.filter(account__customer=customer, last4=last4).update(
        status="active", blocked_at=None, block_key=None, blocked_by=""
    )
    ctx = action_context_for(customer.user, conversation)
    return proposal_create(ctx, CATALOG["block_card"], BlockCardArgs(card=last4), [])
