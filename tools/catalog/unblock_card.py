"""unblock_card: the customer unblocks a card they blocked themselves, after their
click. A card the bank blocked stays blocked: only staff lift that (accounts admin)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pydantic import Field

from accounts.models import Card, Customer
from accounts.selectors import card_get
from accounts.services import card_unblock_check, card_unblock_own
from tools.binding import Grant, Unbound, bind_card
from tools.catalog.base import ArgLabel, Outcome, Sentences, ToolArgs, UiAction, WriteTool
from tools.catalog.rows import CARD
from tools.grammar import Request
from tools.scopes import READ_CARDS, UNBLOCK_CARDS

if TYPE_CHECKING:
    from tools.context import ActionContext

NAME = "unblock_card"


class UnblockCardArgs(ToolArgs):
    """Propose unblocking one of the customer's cards that they blocked themselves (a card
    the bank blocked cannot be unblocked here). Nothing happens until the customer presses
    Confirm on the card shown to them."""

    card: str = Field(pattern=r"^\d{4}$", description="The card's last four digits.")


def _own_block(card: Card) -> bool:
    return card.status == Card.Status.BLOCKED and card.blocked_by == Card.BlockedBy.CUSTOMER


def check(ctx: ActionContext, args: UnblockCardArgs) -> None:
    card_unblock_check(card=card_get(customer=ctx.customer, last4=args.card))


def grant(ctx: ActionContext, args: UnblockCardArgs) -> Grant | None:
    return ctx.mandate.grant_for(NAME, args.card)


def bind(customer: Customer, request: Request, source: str) -> Grant | Unbound:
    # "Unblock my card" means the one card the customer blocked themselves.
    return bind_card(customer, request, source, default=_own_block)


def from_click(action: Mapping[str, str], source: str) -> Grant | None:
    return Grant(NAME, str(action["card"]), source=source) if action.get("card") else None


def summary(ctx: ActionContext, args: UnblockCardArgs) -> str:
    return f"Unblock card {card_get(customer=ctx.customer, last4=args.card).masked}"


def run(ctx: ActionContext, args: UnblockCardArgs, *, idempotency_key: uuid.UUID) -> dict[str, str | bool]:
    return card_unblock_own(customer=ctx.customer, last4=args.card, idempotency_key=idempotency_key).as_dict()


def outcome(result: Mapping[str, object]) -> Outcome:
    if result.get("changed") is False:
        return Outcome(_("Card %(label)s was not blocked.") % {"label": result.get("label")})
    return Outcome(_("Card %(label)s is unblocked.") % {"label": result.get("label")})


SPEC = WriteTool(
    name=NAME,
    args=UnblockCardArgs,
    scopes=frozenset({READ_CARDS, UNBLOCK_CARDS}),
    run=run,
    target=CARD,
    check=check,
    grant=grant,
    bind=bind,
    from_click=from_click,
    summary=summary,
    describe_grant=lambda g: f"unblock card {g.target}",
    autonomy="None: only proposed. Runs after the customer presses Confirm on the exact "
    "card shown; the card must be one the customer named and blocked themselves "
    "(a block the bank made is lifted only by staff).",
    sentences=Sentences(
        not_asked="The customer has not asked to unblock a card, so none will be proposed. "
        "They can ask, or press Unblock next to a card they blocked.",
        offer="Tell them what you understood; they can press Unblock next to a card they blocked.",
        ambiguous="The customer's words fit more than one of their cards, so none will be "
        "proposed: show them their cards; they can press Unblock on the one they "
        "mean.",
        not_identified="The customer's words do not identify one card they blocked; ask for "
        "its last four digits, or they can press Unblock next to the card.",
        closest="Show them the cards it applies to; they can press Unblock on the one they mean.",
    ),
    ui=UiAction(
        label=gettext_lazy("Unblock…"),
        aria_label=gettext_lazy("Unblock card ending %(target)s…"),
        style="btn-outline",
        text=lambda a: _("Unblock card •••• %(card)s") % {"card": a["card"]},
        history=lambda a: f"Please unblock my card ending {a['card']}.",
        offered=lambda row: (
            row.get("status") == Card.Status.BLOCKED and row.get("blocked_by") == Card.BlockedBy.CUSTOMER
        ),
    ),
    action=gettext_lazy("Unblock card •••• %(card)s"),
    outcome=outcome,
    selected=lambda ctx, grant: {"card": grant.target},
    arg_labels={"card": ArgLabel(gettext_lazy("Card"), "card")},
)
