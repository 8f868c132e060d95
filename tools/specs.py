"""The tools the model may call: an explicit registry (G2).

Each tool is a typed function whose first argument is the ActionContext, plus a
Pydantic argument model. No argument names a customer or an account: whose data
it is comes from ``ctx.customer`` alone (G1).
"""

from __future__ import annotations

import copy
import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import tzinfo
from decimal import Decimal
from typing import Any, Literal

from django.utils import timezone
from openai import pydantic_function_tool
from pydantic import BaseModel, ConfigDict, Field

from accounts.errors import RuleViolation
from accounts.models import Card, Transaction
from accounts.money import to_amount
from accounts.selectors import (
    card_get,
    cards_for_customer,
    customer_transactions,
    statement_for_month,
    transaction_get,
    transactions_find,
)
from accounts.services import card_block
from disputes.reasons import REASON_LABELS
from disputes.services import dispute_check, dispute_open
from tools.context import (
    BLOCK_CARDS,
    OPEN_DISPUTES,
    READ_CARDS,
    READ_STATEMENTS,
    ActionContext,
)
from tools.mandate import BLOCK_CARD, RAISE_DISPUTE, REASONS, Grant
from tools.provenance import MERCHANT, External

MONTH_PATTERN = r"^\d{4}-(0[1-9]|1[0-2])$"
AMOUNT_PATTERN = r"^\d{1,12}(\.\d{1,2})?$"


class ToolArgs(BaseModel):
    # Extra fields are an error, not something to ignore: a model that sends
    # account_id is told so (G1, G8).
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


class GetStatementArgs(ToolArgs):
    """Read the customer's own statement for one calendar month: every transaction with
    its reference, date, amount, card, merchant and description, and the month's total."""

    month: str = Field(pattern=MONTH_PATTERN, description="The month, as YYYY-MM.")


class ListCardsArgs(ToolArgs):
    """List the customer's own cards: last four digits, label and status."""


class FindTransactionsArgs(ToolArgs):
    """Find up to 10 of the customer's own transactions by merchant name, exact amount
    and/or month, newest first. Use it to find the reference of a transaction to dispute."""

    merchant: str | None = Field(max_length=100, description="Part of the merchant's name.")
    amount: str | None = Field(pattern=AMOUNT_PATTERN, description="Exact amount in KZT.")
    month: str | None = Field(pattern=MONTH_PATTERN, description="The month, as YYYY-MM.")


class BlockCardArgs(ToolArgs):
    """Propose blocking one of the customer's cards. Nothing happens until the customer
    presses Confirm on the card shown to them."""

    card: str = Field(pattern=r"^\d{4}$", description="The card's last four digits.")


class RaiseDisputeArgs(ToolArgs):
    """Propose opening a dispute about one of the customer's transactions. Nothing happens
    until the customer presses Confirm on the card shown to them."""

    transaction: str = Field(pattern=r"^T-\d{3,12}$", description="Reference, e.g. T-10452.")
    amount: str = Field(pattern=AMOUNT_PATTERN, description="Disputed amount in KZT.")
    # A code, never free text: text planted in a merchant's description must not
    # be able to ride into a record the bank keeps (G7).
    reason: Literal[REASONS] = Field(  # type: ignore[valid-type]
        description="Why, as the customer said: not_recognised (they did not make it), "
                    "charged_twice, not_received (goods or service never came), "
                    "wrong_amount, cancelled (they cancelled and were still charged).")


def _transaction(txn: Transaction, tz: tzinfo | None = None) -> dict[str, Any]:
    return {
        "reference": txn.reference,
        "posted_at": txn.posted_at.astimezone(tz or timezone.get_current_timezone())
        .date().isoformat(),
        "amount_kzt": f"{txn.amount:.2f}",
        "card": txn.card.last4 if txn.card else None,
        "merchant": External(txn.merchant, MERCHANT),
        "description": External(txn.description, MERCHANT),
    }


def _card(card: Card) -> dict[str, str]:
    return {"card": card.last4, "label": card.masked, "status": card.status}


# --- read tools -------------------------------------------------------------

def get_statement(ctx: ActionContext, args: GetStatementArgs) -> dict[str, Any]:
    statement = statement_for_month(customer=ctx.customer, month=args.month)
    tz = timezone.get_current_timezone()
    return {
        "month": str(statement.month),
        "currency": "KZT",
        "transactions": [_transaction(t, tz) for t in statement.transactions],
        "count": statement.count,
        "total_kzt": f"{statement.total:.2f}",
        "has_more": statement.has_more,
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
    return {"cards": [_card(c) for c in cards_for_customer(customer=ctx.customer)]}


def find_transactions(ctx: ActionContext, args: FindTransactionsArgs) -> dict[str, Any]:
    rows = transactions_find(
        customer=ctx.customer,
        merchant=args.merchant,
        amount=Decimal(args.amount) if args.amount else None,
        month=args.month,
    )
    return {"transactions": [_transaction(t) for t in rows], "count": len(rows)}


def candidate_rows(ctx: ActionContext, tool: str, candidates: tuple[str, ...]) -> dict[str, Any]:
    """The objects a denied write's candidates name, as rows the chat shows with
    their Dispute…/Block… buttons ({} when there are none)."""
    if not candidates:
        return {}
    if tool == "block_card":
        cards = [_card(c) for c in cards_for_customer(customer=ctx.customer)
                 if c.last4 in candidates]
        return {"candidates": {"cards": cards}} if cards else {}
    rows = (customer_transactions(customer=ctx.customer).select_related("card")
            .filter(reference__in=list(candidates)).order_by("-posted_at", "-id"))
    transactions = [_transaction(t) for t in rows]
    return {"candidates": {"transactions": transactions}} if transactions else {}


# --- write tools: check (business rules), target (mandate), summary, execute ---

def block_card_check(ctx: ActionContext, args: BlockCardArgs) -> None:
    card = card_get(customer=ctx.customer, last4=args.card)
    if card.status == Card.Status.BLOCKED:
        raise RuleViolation(f"Card {card.masked} is already blocked; nothing to do.",
                            code="card_already_blocked")


def block_card_grant(ctx: ActionContext, args: BlockCardArgs) -> Grant | None:
    return ctx.mandate.grant_for(BLOCK_CARD, args.card)


def block_card_summary(ctx: ActionContext, args: BlockCardArgs) -> str:
    return f"Block card {card_get(customer=ctx.customer, last4=args.card).masked}"


def block_card(ctx: ActionContext, args: BlockCardArgs, *, idempotency_key: uuid.UUID) -> dict:
    return card_block(customer=ctx.customer, last4=args.card,
                      idempotency_key=idempotency_key).as_dict()


def raise_dispute_check(ctx: ActionContext, args: RaiseDisputeArgs) -> None:
    txn = transaction_get(customer=ctx.customer, reference=args.transaction)
    dispute_check(transaction=txn, amount=to_amount(args.amount))


def raise_dispute_grant(ctx: ActionContext, args: RaiseDisputeArgs) -> Grant | None:
    full_amount = None
    if any(g.operation == RAISE_DISPUTE and g.target == args.transaction and g.amount is None
           for g in ctx.mandate.grants):
        # A click on a row grants that row's full amount, whatever it is.
        full_amount = transaction_get(customer=ctx.customer, reference=args.transaction).amount
    return ctx.mandate.grant_for(RAISE_DISPUTE, args.transaction, amount=to_amount(args.amount),
                                 full_amount=full_amount, reason=args.reason)


def raise_dispute_summary(ctx: ActionContext, args: RaiseDisputeArgs) -> str:
    txn = transaction_get(customer=ctx.customer, reference=args.transaction)
    return (f"Dispute {to_amount(args.amount):.2f} KZT of transaction {txn.reference} "
            f"({timezone.localdate(txn.posted_at):%Y-%m-%d}): {REASON_LABELS[args.reason]}")


def raise_dispute(ctx: ActionContext, args: RaiseDisputeArgs, *,
                  idempotency_key: uuid.UUID) -> dict:
    return dispute_open(customer=ctx.customer, transaction_reference=args.transaction,
                        amount=args.amount, reason=args.reason,
                        idempotency_key=idempotency_key).as_dict()


# --- the registry -------------------------------------------------------------

@dataclass(frozen=True)
class ToolSpec:
    name: str
    args: type[ToolArgs]
    effect: Literal["read", "write"]
    scopes: frozenset[str]
    run: Callable[..., dict[str, Any]]
    # Writes only:
    operation: str = ""  # the mandate operation it needs
    check: Callable[[ActionContext, Any], None] | None = None
    # The mandate's grant for exactly this call, or None (G7).
    grant: Callable[[ActionContext, Any], Grant | None] | None = None
    summary: Callable[[ActionContext, Any], str] | None = None
    autonomy: str = ""
    # Reads only: what the audit trace keeps of a result (G9); None keeps all of it.
    traced: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    @property
    def description(self) -> str:
        return " ".join((self.args.__doc__ or "").split())

    def openai_schema(self) -> dict[str, Any]:
        return dict(pydantic_function_tool(self.args, name=self.name,
                                           description=self.description))


REGISTRY: dict[str, ToolSpec] = {
    "get_statement": ToolSpec(
        name="get_statement", args=GetStatementArgs, effect="read",
        scopes=frozenset({READ_STATEMENTS}), run=get_statement, traced=rows_traced,
        autonomy="Runs at once, on a path that cannot write.",
    ),
    "list_cards": ToolSpec(
        name="list_cards", args=ListCardsArgs, effect="read",
        scopes=frozenset({READ_CARDS}), run=list_cards,
        autonomy="Runs at once, on a path that cannot write.",
    ),
    "find_transactions": ToolSpec(
        name="find_transactions", args=FindTransactionsArgs, effect="read",
        scopes=frozenset({READ_STATEMENTS}), run=find_transactions, traced=rows_traced,
        autonomy="Runs at once, on a path that cannot write; at most 10 rows.",
    ),
    "block_card": ToolSpec(
        name="block_card", args=BlockCardArgs, effect="write",
        scopes=frozenset({READ_CARDS, BLOCK_CARDS}), run=block_card, operation=BLOCK_CARD,
        check=block_card_check, grant=block_card_grant, summary=block_card_summary,
        autonomy="None: only proposed. Runs after the customer presses Confirm on the "
                 "exact card shown; the card must be one the customer named.",
    ),
    "raise_dispute": ToolSpec(
        name="raise_dispute", args=RaiseDisputeArgs, effect="write",
        scopes=frozenset({READ_STATEMENTS, OPEN_DISPUTES}), run=raise_dispute,
        operation=RAISE_DISPUTE, check=raise_dispute_check, grant=raise_dispute_grant,
        summary=raise_dispute_summary,
        autonomy="None: only proposed. Runs after the customer presses Confirm on the exact "
                 "transaction, amount and reason shown. The amount is the one the customer "
                 "stated, else the full amount; the reason is a fixed code, never free text.",
    ),
}


def openai_tools() -> list[dict[str, Any]]:
    """The tool list sent to the model (the guarded harness's): a fresh copy of
    schemas built once, since the registry does not change while the process runs
    and building them (Pydantic to JSON schema) cost a millisecond a turn."""
    return copy.deepcopy(_openai_tools())


@functools.cache
def _openai_tools() -> list[dict[str, Any]]:
    return [spec.openai_schema() for spec in REGISTRY.values()]
