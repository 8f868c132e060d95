"""block_card: the customer blocks one of their cards, after their click."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pydantic import Field

from accounts.models import Card, Customer
from accounts.selectors import card_get
from accounts.services import card_block
from errors import RuleViolation
from tools.binding import Grant, Unbound, bind_card
from tools.catalog.base import ArgLabel, Outcome, Sentences, ToolArgs, UiAction, WriteTool
from tools.catalog.rows import CARD
from tools.grammar import Request
from tools.scopes import BLOCK_CARDS, READ_CARDS

if TYPE_CHECKING:
    from tools.context import ActionContext

NAME = "block_card"


class BlockCardArgs(ToolArgs):
    """Propose blocking one of the customer's cards. Nothing happens until the customer
    presses Confirm on the card shown to them."""

    card: str = Field(pattern=r"^\d{4}$", description="The card's last four digits.")


def check(ctx: ActionContext, args: BlockCardArgs) -> None:
    card = card_get(customer=ctx.customer, last4=args.card)
    if card.status == Card.Status.BLOCKED:
        raise RuleViolation(
            gettext_lazy("Card %(card)s is already blocked; nothing to do."),
            code="card_already_blocked",
            card=card.masked,
        )


def grant(ctx: ActionContext, args: BlockCardArgs) -> Grant | None:
    return ctx.mandate.grant_for(NAME, args.card)


def bind(customer: Customer, request: Request, source: str) -> Grant | Unbound:
    # "Block my card" means the one active card.
    return bind_card(customer, request, source, default=lambda card: card.status == Card.Status.ACTIVE)


def from_click(action: Mapping[str, str], source: str) -> Grant | None:
    return Grant(NAME, str(action["card"]), source=source) if action.get("card") else None


def summary(ctx: ActionContext, args: BlockCardArgs) -> str:
    return f"Block card {card_get(customer=ctx.customer, last4=args.card).masked}"


def run(
    ctx: ActionContext, args: BlockCardArgs, *, idempotency_key: uuid.UUID
) -> dict[str, str | bool | None]:
    return card_block(customer=ctx.customer, last4=args.card, idempotency_key=idempotency_key).as_dict()


# What a block means for the customer, and what comes next: said on the confirm card once
# the block is carried out, whatever made them ask (a lost or stolen card most often; a
# click on a row's button says no more). A replacement is the bank's app's or a branch's:
# no tool orders one.
BLOCKED_MEANS = gettext_lazy(
    "No new payments or cash withdrawals can be made with it. Payments already under way "
    "may still go through; if one of them isn't yours, you can dispute it here. If you find "
    "the card, you can unblock it here. For a new card, order a replacement in the bank's app "
    "or at a branch: it can't be ordered in this chat."
)


def outcome(result: Mapping[str, object]) -> Outcome:
    if result.get("changed") is False:
        return Outcome(_("Card %(label)s was already blocked.") % {"label": result.get("label")})
    blocked = _("Card %(label)s is blocked.") % {"label": result.get("label")}
    return Outcome(blocked, after=str(BLOCKED_MEANS))


SPEC = WriteTool(
    name=NAME,
    args=BlockCardArgs,
    scopes=frozenset({READ_CARDS, BLOCK_CARDS}),
    run=run,
    target=CARD,
    check=check,
    grant=grant,
    bind=bind,
    from_click=from_click,
    summary=summary,
    describe_grant=lambda g: f"block card {g.target}",
    autonomy="None: only proposed. Runs after the customer presses Confirm on the "
    "exact card shown; the card must be one the customer named.",
    sentences=Sentences(
        not_asked="The customer has not asked to block a card, so none will be proposed. "
        "They can ask, or press Block next to the card.",
        offer="Tell them what you understood; they can press Block next to the card.",
        ambiguous="The customer's words fit more than one of their cards, so none will be "
        "proposed: show them their cards; they can press Block on the one they mean.",
        not_identified="The customer's words do not identify one of their cards; ask for its "
        "last four digits, or they can press Block next to the card.",
        closest="Show them the cards it applies to; they can press Block on the one they mean.",
    ),
    ui=UiAction(
        label=gettext_lazy("Block…"),
        aria_label=gettext_lazy("Block card ending %(target)s…"),
        style="btn-danger-outline",
        text=lambda a: _("Block card •••• %(card)s") % {"card": a["card"]},
        history=lambda a: f"Please block my card ending {a['card']}.",
        offered=lambda row: row.get("status") == Card.Status.ACTIVE,
    ),
    action=gettext_lazy("Block card •••• %(card)s"),
    outcome=outcome,
    selected=lambda ctx, grant: {"card": grant.target},
    arg_labels={"card": ArgLabel(gettext_lazy("Card"), "card")},
)
