"""How the objects a tool names are shown: one serialiser per kind of row, for the
model (externally written fields marked with their author, G6) and for templates
(the same shape, plain text), and the kinds of object a write tool can target."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any, Protocol

from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from accounts.models import Card, Customer, Transaction
from accounts.selectors import cards_for_customer, customer_transactions
from tools.provenance import MERCHANT, External

# The provenance rule of a transaction row: the merchant wrote these fields.
TRANSACTION_EXTERNAL = {"merchant": MERCHANT, "description": MERCHANT}


# What the customer reads of a card's state: its chip on the cards list, and the answer
# check's word in place of a false one (G10).
CARD_STATE_WORDS: dict[str, Promise] = {
    Card.Status.ACTIVE: gettext_lazy("Active"),
    Card.Status.BLOCKED: gettext_lazy("Blocked"),
}


def card_row(card: Card) -> dict[str, str]:
    """A card as the model and the templates see it. A blocked card says who
    blocked it: the customer may unblock only their own block."""
    row = {"card": card.last4, "label": card.masked, "status": str(card.status)}
    if card.status == Card.Status.BLOCKED:
        row["blocked_by"] = card.blocked_by or Card.BlockedBy.BANK
    return row


def transaction_row(txn: Transaction, tz: tzinfo | None = None, *, for_model: bool = True) -> dict[str, Any]:
    """A transaction row; for the model its merchant-written fields are External."""
    row: dict[str, Any] = {
        "reference": txn.reference,
        "posted_at": txn.posted_at.astimezone(tz or timezone.get_current_timezone()).date().isoformat(),
        "amount_kzt": f"{txn.amount:.2f}",
        "card": txn.card.last4 if txn.card else None,
        "merchant": txn.merchant,
        "description": txn.description,
    }
    if for_model:
        for name, author in TRANSACTION_EXTERNAL.items():
            row[name] = External(row[name], author)
    return row


class RowsOf(Protocol):
    def __call__(self, customer: Customer, names: Collection[str]) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class Target:
    """The kind of object a write tool acts on: the argument that names it (and
    that a click sends), what such a name looks like, and its rows."""

    kind: str  # the argument's name: "card", "transaction"
    plural: str  # the key its rows are listed under: "cards", "transactions"
    key: str  # the field of its row that names it: "card", "reference"
    pattern: re.Pattern[str]  # a name a click may send
    rows: RowsOf  # the customer's rows with these names, for the model

    def normal(self, name: str) -> str:
        return name.strip().upper()


def _card_rows(customer: Customer, names: Collection[str]) -> list[dict[str, Any]]:
    return [card_row(c) for c in cards_for_customer(customer=customer) if c.last4 in names]


def _transaction_rows(customer: Customer, names: Collection[str]) -> list[dict[str, Any]]:
    rows = (
        customer_transactions(customer=customer)
        .select_related("card")
        .filter(reference__in=list(names))
        .order_by("-posted_at", "-id")
    )
    return [transaction_row(t) for t in rows]


CARD = Target("card", "cards", "card", re.compile(r"^\d{4}$"), _card_rows)
TRANSACTION = Target(
    "transaction", "transactions", "reference", re.compile(r"^T-\d{1,12}$"), _transaction_rows
)
