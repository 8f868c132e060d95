"""The read tools: they run at once, on a path that cannot write (G2)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from pydantic import Field

from accounts.selectors import cards_for_customer, statement_for_month, transactions_find
from tools.catalog.base import ReadTool, ToolArgs
from tools.catalog.rows import card_row, transaction_row
from tools.scopes import READ_CARDS, READ_STATEMENTS

if TYPE_CHECKING:
    from tools.context import ActionContext

MONTH_PATTERN = r"^\d{4}-(0[1-9]|1[0-2])$"
AMOUNT_PATTERN = r"^\d{1,12}(\.\d{1,2})?$"
REFERENCE_PATTERN = r"^[Tt]-\d{1,12}$"
AT_ONCE = "Runs at once, on a path that cannot write."


class GetStatementArgs(ToolArgs):
    """Read the customer's own statement for one calendar month: every transaction with
    its reference, date, amount, card, merchant and description, and the month's total."""

    month: str = Field(pattern=MONTH_PATTERN, description="The month, as YYYY-MM.")


class ListCardsArgs(ToolArgs):
    """List the customer's own cards: last four digits, label, status and, for a blocked
    card, who blocked it (the customer can unblock only a card they blocked)."""


class FindTransactionsArgs(ToolArgs):
    """Find up to 10 of the customer's own transactions by merchant name, exact amount
    and/or month, newest first, or the one with a reference the customer named. Use it to
    find the reference (and amount) of a transaction to dispute."""

    merchant: str | None = Field(max_length=100, description="Part of the merchant's name.")
    amount: str | None = Field(pattern=AMOUNT_PATTERN, description="Exact amount in KZT.")
    month: str | None = Field(pattern=MONTH_PATTERN, description="The month, as YYYY-MM.")
    # Optional, and last: a call that names no reference still validates.
    reference: str | None = Field(
        default=None,
        pattern=REFERENCE_PATTERN,
        description="The transaction's reference (T-1004), when the customer named it.",
    )


def get_statement(ctx: ActionContext, args: GetStatementArgs) -> dict[str, Any]:
    statement = statement_for_month(customer=ctx.customer, month=args.month)
    tz = timezone.get_current_timezone()
    return {
        "month": str(statement.month),
        "currency": "KZT",
        "transactions": [transaction_row(t, tz) for t in statement.transactions],
        "count": statement.count,
        "total_kzt": f"{statement.total:.2f}",
        "has_more": statement.has_more,
        # An empty month names the latest earlier month with transactions, to offer it.
        **(
            {"latest_month_with_transactions": str(statement.latest_earlier)}
            if statement.latest_earlier
            else {}
        ),
    }


def rows_traced(data: dict[str, Any]) -> dict[str, Any]:
    """What the trace keeps of a list of transactions: which rows, not their text.

    The references name the rows the model was shown, with the count and total;
    the text itself, as shown, is stored with the conversation's tool message. A
    statement traced verbatim cost more than the statement's own queries
    (docs/benchmarks.md, part a).
    """
    kept = {key: value for key, value in data.items() if key != "transactions"}
    kept["references"] = [row["reference"] for row in data["transactions"]]
    return kept


def list_cards(ctx: ActionContext, args: ListCardsArgs) -> dict[str, Any]:
    return {"cards": [card_row(c) for c in cards_for_customer(customer=ctx.customer)]}


def find_transactions(ctx: ActionContext, args: FindTransactionsArgs) -> dict[str, Any]:
    rows = transactions_find(
        customer=ctx.customer,
        merchant=args.merchant,
        amount=Decimal(args.amount) if args.amount else None,
        month=args.month,
        reference=args.reference,
    )
    return {"transactions": [transaction_row(t) for t in rows], "count": len(rows)}


GET_STATEMENT = ReadTool(
    name="get_statement",
    args=GetStatementArgs,
    scopes=frozenset({READ_STATEMENTS}),
    run=get_statement,
    traced=rows_traced,
    autonomy=AT_ONCE,
)
LIST_CARDS = ReadTool(
    name="list_cards",
    args=ListCardsArgs,
    scopes=frozenset({READ_CARDS}),
    run=list_cards,
    autonomy=AT_ONCE,
)
FIND_TRANSACTIONS = ReadTool(
    name="find_transactions",
    args=FindTransactionsArgs,
    scopes=frozenset({READ_STATEMENTS}),
    run=find_transactions,
    traced=rows_traced,
    autonomy="Runs at once, on a path that cannot write; at most 10 rows.",
)
