"""Transactions for statement tests, at local times."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.utils import timezone

from accounts.models import Customer, Transaction


def local(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.get_current_timezone())


def add(customer: Customer, reference: str, posted_at: datetime, amount: str) -> Transaction:
    return Transaction.objects.create(
        account=customer.accounts.get(),
        reference=reference,
        posted_at=posted_at,
        amount=Decimal(amount),
        merchant="Magnum Cash&Carry",
        description="Groceries",
    )
