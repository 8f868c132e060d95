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


# Cara's world (the cara fixture): look-alike merchants, amount twins, several cards.
WORLD = [  # reference, days ago, amount, merchant, card
    ("T-3001", 5, "15000.00", "Acme Food", "4242"),
    ("T-3002", 6, "4200.00", "Acme Rides", "4242"),
    ("T-3003", 10, "15000.00", "Magnum Cash&Carry", "5505"),
    ("T-3004", 3, "2500.50", "Coffee Boom", "4242"),
    ("T-3005", 40, "99000.00", "Air Astana", "5505"),
    ("T-3006", 12, "4200.00", "Yandex Go", "5505"),
    ("T-3007", 200, "8000.00", "Sulpak", "4242"),
    ("T-3008", 20, "7300.00", "Magnum Cash&Carry", "5505"),
    ("T-3009", 2, "43000.00", "Kaspi Magazin", "4242"),
    ("T-3010", 8, "1200.00", "Acme Company", "4242"),
]


ACME_CODES = {"Acme Food": "5812", "Acme Rides": "4121"}
