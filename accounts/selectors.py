"""Reads, always scoped to the acting customer (G1).

Every function takes ``customer`` first, so a query that forgot whose data it
reads cannot be written. A row the customer does not own is reported exactly
like a row that does not exist.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from itertools import islice

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.categories import CATEGORIES, category_filter
from accounts.models import Account, Card, Customer, HourlyTotal, Transaction
from errors import InvalidInput, NotFound

# A statement is paginated so that a month with a million rows costs the same
# memory as a month with a thousand (issue 8, benchmark d).
STATEMENT_PAGE_SIZE = 200

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
# The months a statement can name: a month ends where the next one starts, and
# Python's dates stop at 9999-12-31.
FIRST_YEAR, LAST_YEAR = 1900, 9998


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
    if not match or not 1 <= int(match.group(2)) <= 12:
        raise InvalidInput(
            _("%(value)s is not a month; write it as YYYY-MM, for example 2026-10."),
            code="invalid_month",
            value=repr(value),
        )
    if not FIRST_YEAR <= int(match.group(1)) <= LAST_YEAR:
        raise InvalidInput(
            _(
                "%(value)s is out of range; write a month from %(first)s-01 to "
                "%(last)s-12 as YYYY-MM, for example 2026-10."
            ),
            code="invalid_month",
            value=repr(value),
            first=FIRST_YEAR,
            last=LAST_YEAR,
        )
    return Month(int(match.group(1)), int(match.group(2)))


PAGES_FROM_ONE = _("Pages are numbered from 1.")


@dataclass(frozen=True)
class Statement:
    month: Month
    transactions: list[Transaction]
    count: int
    total: Decimal
    page: int
    has_more: bool
    # For a month with no transactions: the latest month before it that has some
    # (what a bank app offers on the 1st, when this month is still empty).
    latest_earlier: Month | None = None


def customer_transactions(*, customer: Customer) -> QuerySet[Transaction]:
    return Transaction.objects.filter(account__customer=customer)


def statement_for_month(
    *, customer: Customer, month: str, page: int = 1, page_size: int = STATEMENT_PAGE_SIZE
) -> Statement:
    parsed = parse_month(month)
    if page < 1:
        raise InvalidInput(PAGES_FROM_ONE, code="invalid_page")
    start, end = parsed.bounds()
    count, total, account_ids = _month_totals(customer, start, end)
    pages = max(1, -(-count // page_size))
    if page > pages:
        raise InvalidInput(
            ngettext_lazy(
                "The statement for %(month)s has %(pages)s page; ask for a page from 1 to %(pages)s.",
                "The statement for %(month)s has %(pages)s pages; ask for a page from 1 to %(pages)s.",
                "pages",
            ),
            code="invalid_page",
            month=str(parsed),
            pages=pages,
        )
    rows = customer_transactions(customer=customer).filter(posted_at__gte=start, posted_at__lt=end)
    window = _month_page(rows, account_ids, offset=(page - 1) * page_size, limit=page_size + 1)
    return Statement(
        month=parsed,
        transactions=window[:page_size],
        count=count,
        total=total,
        page=page,
        has_more=len(window) > page_size,
        latest_earlier=None if count else latest_month_before(customer=customer, month=parsed),
    )


def latest_month_before(*, customer: Customer, month: Month) -> Month | None:
    """The newest month before ``month`` in which the customer has a transaction."""
    start, _ = month.bounds()
    newest = (
        customer_transactions(customer=customer)
        .filter(posted_at__lt=start)
        .order_by("-posted_at")
        .values_list("posted_at", flat=True)
        .first()
    )
    if newest is None:
        return None
    day = timezone.localdate(newest)
    return Month(day.year, day.month)


def _hour_floor(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def _month_totals(customer: Customer, start: datetime, end: datetime) -> tuple[int, Decimal, list[int]]:
    """The exact count and total of [start, end), and which of the customer's
    accounts have rows in it, without reading those rows: sums of the hourly
    totals the database keeps (at most ~745 per account), so a month of 86,400
    transactions costs what a month of 85 does (benchmark d).

    In a zone with a sub-hour offset (Asia/Kolkata, or a historical local mean
    time) the month starts and ends inside a UTC hour; those part-hours are
    counted from the transactions themselves: less than two hours of rows."""
    inner_start = _hour_floor(start)
    if inner_start < start:
        inner_start += timedelta(hours=1)
    inner_end = _hour_floor(end)
    count, total_minor, total, accounts = 0, 0, Decimal("0.00"), set()
    for hours in (
        HourlyTotal.objects.filter(account__customer=customer, hour__gte=inner_start, hour__lt=inner_end)
        .values("account_id")
        .annotate(count=Sum("count"), total_minor=Sum("total_minor"))
        .order_by()
    ):
        count += hours["count"]
        total_minor += hours["total_minor"]
        accounts.add(hours["account_id"])
    if inner_start != start or inner_end != end:
        for edge in (
            customer_transactions(customer=customer)
            .filter(
                Q(posted_at__gte=start, posted_at__lt=inner_start)
                | Q(posted_at__gte=inner_end, posted_at__lt=end)
            )
            .values("account_id")
            .annotate(count=Count("id"), total=Sum("amount"))
            .order_by()
        ):
            count += edge["count"]
            total += edge["total"]
            accounts.add(edge["account_id"])
    # Minor units: 50000 is 500.00.
    return count, total + Decimal(total_minor).scaleb(-2), sorted(accounts)


def _month_page(
    rows: QuerySet[Transaction], account_ids: list[int], *, offset: int, limit: int
) -> list[Transaction]:
    """``limit`` of ``rows`` from ``offset``, in (posted_at, id) order, reading
    at most ``offset + limit`` rows of each account that has any.

    One query per account: the (account, posted_at) index yields that order for
    one account only, so a query over all the customer's accounts (a join)
    makes PostgreSQL read and sort every row of the month, 86,400 of them in a
    busy one (benchmark d). Most customers have one account: one query."""
    ordered = rows.select_related("card").order_by("posted_at", "id")
    if not account_ids:
        return []
    if len(account_ids) == 1:
        return list(ordered.filter(account_id=account_ids[0])[offset : offset + limit])
    heads = [list(ordered.filter(account_id=account_id)[: offset + limit]) for account_id in account_ids]
    merged = heapq.merge(*heads, key=lambda row: (row.posted_at, row.pk))
    return list(islice(merged, offset, offset + limit))


def transaction_get(*, customer: Customer, reference: str) -> Transaction:
    try:
        return (
            customer_transactions(customer=customer)
            .select_related("card")
            .get(reference=str(reference).strip().upper())
        )
    except Transaction.DoesNotExist:
        raise NotFound(
            _("There is no transaction %(reference)s on your account."), reference=reference
        ) from None


def transactions_find(
    *,
    customer: Customer,
    merchant: str | None = None,
    amount: Decimal | None = None,
    month: str | None = None,
    reference: str | None = None,
    limit: int = 10,
) -> list[Transaction]:
    rows = customer_transactions(customer=customer).select_related("card")
    if reference:
        rows = rows.filter(reference__iexact=reference.strip())
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
        raise NotFound(_("There is no card ending in %(last4)s on your account."), last4=last4) from None
    except Card.MultipleObjectsReturned:  # two accounts, same last four
        raise InvalidInput(
            _("More than one of your cards ends in %(last4)s; block it from the card list."),
            code="ambiguous_card",
            last4=last4,
        ) from None


def accounts_for_customer(*, customer: Customer) -> list[Account]:
    """The customer's accounts, with their balances as the bank holds them."""
    return list(Account.objects.filter(customer=customer).order_by("id"))


# A spending question covers at most about a year: a longer sum is a report, not a chat answer.
LONGEST_PERIOD_DAYS = 366


@dataclass(frozen=True)
class Spending:
    """What the customer spent from ``first`` to ``last`` (local dates, both
    included), at a merchant or in a category or in all: the count and total of
    every matching row, and the newest ``limit`` rows themselves."""

    first: date
    last: date
    count: int
    total: Decimal
    transactions: list[Transaction]
    has_more: bool


def spending_for_period(
    *,
    customer: Customer,
    first: date,
    last: date,
    merchant: str | None = None,
    category: str | None = None,
    limit: int = 10,
) -> Spending:
    if last < first:
        raise InvalidInput(
            _("The period ends (%(last)s) before it starts (%(first)s)."),
            code="invalid_period",
            last=last,
            first=first,
        )
    if (last - first).days >= LONGEST_PERIOD_DAYS:
        raise InvalidInput(
            _("Ask about at most %(days)s days at a time."), code="invalid_period", days=LONGEST_PERIOD_DAYS
        )
    if category is not None and category not in CATEGORIES:
        raise InvalidInput(
            _("%(category)s is not a category; use one of %(categories)s."),
            code="invalid_category",
            category=repr(category),
            categories=", ".join(CATEGORIES),
        )
    tz = timezone.get_current_timezone()
    start = datetime.combine(first, time.min, tzinfo=tz)
    end = datetime.combine(last + timedelta(days=1), time.min, tzinfo=tz)
    rows = customer_transactions(customer=customer).filter(posted_at__gte=start, posted_at__lt=end)
    if merchant:
        rows = rows.filter(merchant__icontains=merchant.strip())
    if category:
        rows = rows.filter(category_filter(category))
    totals = rows.aggregate(count=Count("id"), total=Sum("amount"))
    newest = list(rows.select_related("card").order_by("-posted_at", "-id")[: limit + 1])
    return Spending(
        first=first,
        last=last,
        count=totals["count"],
        total=totals["total"] or Decimal("0.00"),
        transactions=newest[:limit],
        has_more=len(newest) > limit,
    )
