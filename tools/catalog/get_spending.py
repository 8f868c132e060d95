"""get_spending: how much the customer spent over a month or a run of days, at one
merchant, in one category, or in all. The count and total are the database's sum
(bank-computed figures, G10); the newest rows come with them, so the chat can show
them with their buttons. A read: it runs at once, on a path that cannot write (G2)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Literal, Self, get_args

from django.utils import timezone
from pydantic import Field, model_validator

from accounts.categories import CATEGORIES
from accounts.selectors import parse_month, spending_for_period
from tools.catalog.base import ReadTool, ToolArgs
from tools.catalog.reads import MONTH_PATTERN, rows_traced
from tools.catalog.rows import transaction_row
from tools.scopes import READ_STATEMENTS

if TYPE_CHECKING:
    from tools.context import ActionContext

NAME = "get_spending"
Category = Literal[
    "taxi",
    "groceries",
    "coffee",
    "restaurants",
    "travel",
    "electronics",
    "entertainment",
    "subscriptions",
    "shopping",
]
assert set(get_args(Category)) == set(CATEGORIES)  # one list of categories, the bank's


class GetSpendingArgs(ToolArgs):
    """Sum the customer's own spending over one calendar month or from one date to
    another (both included), at a merchant (part of its name), in a category, or in
    all: the count, the total in KZT and the 10 newest matching transactions. Give
    either month, or date_from and date_to."""

    merchant: str | None = Field(max_length=100, description="Part of the merchant's name.")
    category: Category | None = Field(
        description="A spending category, by the bank's merchant category codes."
    )
    month: str | None = Field(pattern=MONTH_PATTERN, description="The month, as YYYY-MM.")
    date_from: date | None = Field(description="The first day, as YYYY-MM-DD.")
    date_to: date | None = Field(description="The last day, as YYYY-MM-DD (included).")

    @model_validator(mode="after")
    def one_period(self) -> Self:
        days = (self.date_from, self.date_to)
        if self.month is None and None in days:
            raise ValueError("give a month (YYYY-MM), or both date_from and date_to (YYYY-MM-DD)")
        if self.month is not None and days != (None, None):
            raise ValueError("give either a month or dates, not both")
        return self


def get_spending(ctx: ActionContext, args: GetSpendingArgs) -> dict[str, Any]:
    if args.month is not None:
        start, end = parse_month(args.month).bounds()
        first, last = start.date(), end.date() - timedelta(days=1)
    else:
        assert args.date_from is not None and args.date_to is not None  # one_period
        first, last = args.date_from, args.date_to
    spending = spending_for_period(
        customer=ctx.customer, first=first, last=last, merchant=args.merchant, category=args.category
    )
    tz = timezone.get_current_timezone()
    # The merchant filter is not echoed: the customer's or model's words in a result
    # would read as the bank's (G10).
    return {
        "date_from": first.isoformat(),
        "date_to": last.isoformat(),
        "category": args.category,
        "currency": "KZT",
        "count": spending.count,
        "total_kzt": f"{spending.total:.2f}",
        "transactions": [transaction_row(t, tz) for t in spending.transactions],
        "has_more": spending.has_more,
    }


SPEC = ReadTool(
    name=NAME,
    args=GetSpendingArgs,
    scopes=frozenset({READ_STATEMENTS}),
    run=get_spending,
    traced=rows_traced,
    autonomy="Runs at once, on a path that cannot write; at most a year at a time, 10 rows.",
)
