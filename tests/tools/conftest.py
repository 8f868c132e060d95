from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from accounts.models import Card, Customer
from tests.factories import make_customer
from tests.tools.helpers import ACME_CODES, WORLD
from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_for


@pytest.fixture
def harness_for():
    """harness_for(conversation, "block my card 4242", ui={...}) → a GuardedHarness."""

    def build(conversation, text: str = "", ui: dict | None = None, **kwargs):
        mandate = mandate_for(customer=conversation.customer, text=text, ui_action=ui)
        ctx = action_context_for(conversation.customer.user, conversation, mandate=mandate, **kwargs)
        return GuardedHarness(ctx)

    return build


@pytest.fixture
def cara(db: None) -> Customer:
    """A customer whose world is full of look-alikes: merchants that share a word,
    amount twins, several cards (7777 blocked by the bank, 6006 by Cara herself);
    Dan owns the foreign card and row."""
    customer = make_customer(
        "cara",
        "Cara Seitkali",
        "KZ86125KZT5004100300",
        ["4242", "5505", "7777", "6006"],
        [(r, d, a, m, "Card payment") for r, d, a, m, _ in WORLD],
    )
    Card.objects.filter(last4="5505").update(brand="Mastercard")
    Card.objects.filter(last4="7777").update(
        status="blocked", blocked_at=timezone.now(), blocked_by=Card.BlockedBy.BANK
    )
    Card.objects.filter(last4="6006").update(
        status="blocked",
        blocked_at=timezone.now(),
        blocked_by=Card.BlockedBy.CUSTOMER,
        block_key=uuid.uuid4(),
    )
    # The card network's codes for the look-alikes (the demo's are accounts.demo's):
    # Acme Rides is a taxi as Yandex Go is; Acme Company has no code.
    for merchant, code in ACME_CODES.items():
        customer.accounts.get().transactions.filter(merchant=merchant).update(mcc=code)
    cards = {c.last4: c for c in Card.objects.filter(account__customer=customer)}
    for reference, _, _, _, card in WORLD:
        customer.accounts.get().transactions.filter(reference=reference).update(card=cards[card])
    make_customer(
        "dan", "Dan Omarov", "KZ86125KZT5004100301", ["1111"], [("T-4001", 4, "15000.00", "Acme Food", "")]
    )
    Card.objects.filter(last4="1111").update(
        status="blocked",
        blocked_at=timezone.now(),
        blocked_by=Card.BlockedBy.CUSTOMER,
        block_key=uuid.uuid4(),
    )
    return customer
