"""Rows the tests make: customers with their accounts, cards and transactions, and
proposals as the guarded harness stores them. Plain functions, imported by the tests
(fixtures that use them are in the conftest files)."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.demo import network_code
from accounts.models import Account, Card, Customer, Transaction
from bankbot.models import Conversation
from tools.catalog import CATALOG
from tools.catalog.block_card import BlockCardArgs
from tools.catalog.raise_dispute import RaiseDisputeArgs
from tools.models import Proposal


def days_ago(days: int, hour: int = 12) -> datetime:
    moment = timezone.localtime() - timedelta(days=days)
    return moment.replace(hour=hour, minute=0, second=0, microsecond=0)


def make_customer(
    username: str,
    full_name: str,
    number: str,
    cards: list[str],
    transactions: list[tuple[str, int, str, str, str]],
) -> Customer:
    """transactions: (reference, days ago, amount, merchant, description)."""
    user = get_user_model().objects.create_user(username=username, password=f"{username}-pw-123")
    customer = Customer.objects.create(user=user, full_name=full_name)
    account = Account.objects.create(customer=customer, number=number, balance=Decimal("100000.00"))
    made = [Card.objects.create(account=account, last4=last4) for last4 in cards]
    for reference, age, amount, merchant, description in transactions:
        Transaction.objects.create(
            account=account,
            card=made[0],
            reference=reference,
            posted_at=days_ago(age),
            amount=Decimal(amount),
            merchant=merchant,
            description=description,
            mcc=network_code(merchant),
        )
    return customer


def make_proposal(
    conversation: Conversation, tool: str = "block_card", sources: list | None = None, **args: str
) -> Proposal:
    """A proposal as the guarded harness stores it (policy is the harness's
    business and tested there; these tests are about the card and its views)."""
    from tools.context import action_context_for
    from tools.proposals import proposal_create
    from tools.provenance import Source

    ctx = action_context_for(conversation.customer.user, conversation)
    spec = CATALOG[tool]
    model = {"block_card": BlockCardArgs, "raise_dispute": RaiseDisputeArgs}[tool]
    return proposal_create(
        ctx, spec, model(**(args or {"card": "4242"})), [Source(**s) for s in sources or []]
    )
