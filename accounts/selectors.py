"""Reads, always scoped to the acting customer (G1).

Every function takes ``customer`` first, so a query that forgot whose data it
reads cannot be written. A row the customer does not own is reported exactly
like a row that does not exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone

from accounts.errors import InvalidInput, NotFound
from accounts.models import Card, Customer, Transaction

# A statement is paginated so that a month with a million rows costs the same
# memory as a month with a thousand (issue 8, benchmark d).
STATEMENT_PAGE_SIZE = 200

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


@dataclass(frozen=True)
class Month:
    year: int
    month: int

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    def bounds(self) -> tuple[datetime, datetime]:
        tz = timezone.get_current_timezone()
        start = datetime(self.year, self.month, 1, tzinfo=tz)
        end = datetime(self.year + self.month // 12, self.month % 12 + 1, 1, tzinfo=tz)
        return start, end


def parse_month(value: str) -> Month:
    match = _MONTH.match(value.strip()) if isinstance(value, str) else None
    if not match or not 1 <= int(match.group(2)) <= 12 or int(match.group(1)) < 1900:
        raise InvalidInput(
            f"{value!r} is not a month; write it as YYYY-MM, for example 2026-10.",
            code="invalid_month",
        )
    return Month(int(match.group(1)), int(match.group(2)))


@dataclass(frozen=True)
class Statement:
    month: Month
    transactions: list[Transaction]
    count: int
    total: Decimal
    page: int
    has_more: bool


def customer_transactions(*, customer: Customer) -> QuerySet[Transaction]:
    return Transaction.objects.filter(account__customer=customer)


def statement_for_month(
    *, customer: Customer, month: str, page: int = 1, page_size: int = STATEMENT_PAGE_SIZE
) -> Statement:
    parsed = parse_month(month)
    if page < 1:
        raise InvalidInput("Pages are numbered from 1.", code="invalid_page")
    start, end = parsed.bounds()
    rows = customer_transactions(customer=customer).filter(posted_at__gte=start, posted_at__lt=end)
    summary = rows.aggregate(count=Count("id"), total=Sum("amount"))
    offset = (page - 1) * page_size
    window = list(
        rows.select_related("card").order_by("posted_at", "id")[offset : offset + page_size + 1]
    )
    return Statement(
        month=parsed,
        transactions=window[:page_size],
        count=summary["count"],
        total=summary["total"] or Decimal("0.00"),
        page=page,
        has_more=len(window) > page_size,
    )


def transaction_get(*, customer: Customer, reference: str) -> Transaction:
    try:
        return customer_transactions(customer=customer).select_related("card").get(
            reference=str(reference).strip().upper()
        )
    except Transaction.DoesNotExist:
        raise NotFound(f"There is no transaction {reference} on your account.") from None


def transactions_find(
    *,
    customer: Customer,
    merchant: str | None = None,
    amount: Decimal | None = None,
    month: str | None = None,
    limit: int = 10,
) -> list[Transaction]:
    rows = customer_transactions(customer=customer).select_related("card")
    if merchant:
        rows = rows.filter(merchant__icontains=merchant.strip())
    if amount is not None:
        rows = rows.filter(amount=amount)
    if month:
        start, end = parse_month(month).bounds()
        rows = rows.filter(posted_at__gte=start, posted_at__lt=end)
    return list(rows.order_by("-posted_at", "-id")[:limit])


def cards_for_customer(*, customer: Customer) -> list[Card]:
    return list(Card.objects.filter(account__customer=customer).order_by("id"))


def card_get(*, customer: Customer, last4: str) -> Card:
    try:
        return Card.objects.get(account__customer=customer, last4=str(last4).strip())
    except Card.DoesNotExist:
        raise NotFound(f"There is no card ending in {last4} on your account.") from None
    except Card.MultipleObjectsReturned:  # two accounts, same last four
        raise InvalidInput(
            f"More than one of your cards ends in {last4}; block it from the card list.",
            code="ambiguous_card",
        ) from None

