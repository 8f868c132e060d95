"""raise_dispute: the customer disputes one of their transactions, after their click."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from django.conf import settings
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from pydantic import Field

from accounts.money import kzt_text, to_amount
from accounts.selectors import transaction_get
from disputes.models import Dispute
from disputes.reasons import DISPUTE_REASONS, REASON_LABELS
from disputes.services import dispute_check, dispute_open, dispute_window_open
from tools.binding import Grant, bind_transaction
from tools.catalog.base import ArgLabel, Outcome, Sentences, ToolArgs, UiAction, WriteTool
from tools.catalog.reads import AMOUNT_PATTERN
from tools.catalog.rows import TRANSACTION
from tools.grammar import DEFAULT_REASON, REASONS
from tools.scopes import OPEN_DISPUTES, READ_STATEMENTS

if TYPE_CHECKING:
    from tools.context import ActionContext

NAME = "raise_dispute"


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
        "wrong_amount, cancelled (they cancelled and were still charged)."
    )


def check(ctx: ActionContext, args: RaiseDisputeArgs) -> None:
    txn = transaction_get(customer=ctx.customer, reference=args.transaction)
    dispute_check(transaction=txn, amount=to_amount(args.amount))


def grant(ctx: ActionContext, args: RaiseDisputeArgs) -> Grant | None:
    """The grant for exactly this transaction, amount and reason: a stated part, or
    else the full amount (a click on a row grants the full amount, whatever it is)."""
    grants = ctx.mandate.grants_for(NAME, args.transaction)
    full_amount = None
    if any(g.amount is None for g in grants):
        full_amount = transaction_get(customer=ctx.customer, reference=args.transaction).amount
    amount = to_amount(args.amount)
    return next(
        (
            g
            for g in grants
            if amount == (g.amount if g.amount is not None else full_amount) and args.reason == g.reason
        ),
        None,
    )


def from_click(action: Mapping[str, str], source: str) -> Grant | None:
    if not action.get("transaction"):
        return None
    reason = action.get("reason") if action.get("reason") in REASONS else DEFAULT_REASON
    return Grant(NAME, str(action["transaction"]).upper(), None, reason, source)


def summary(ctx: ActionContext, args: RaiseDisputeArgs) -> str:
    txn = transaction_get(customer=ctx.customer, reference=args.transaction)
    # English, for the record; the amount written as English pages write it.
    return (
        f"Dispute {kzt_text(to_amount(args.amount), 'en')} of transaction {txn.reference} "
        f"({timezone.localdate(txn.posted_at):%Y-%m-%d}): {REASON_LABELS[args.reason]}"
    )


def describe_grant(grant: Grant) -> str:
    amount = f"{grant.amount:.2f} KZT" if grant.amount is not None else "its full amount"
    return f"dispute {grant.target} for {amount}, reason {grant.reason}"


def run(ctx: ActionContext, args: RaiseDisputeArgs, *, idempotency_key: uuid.UUID) -> dict[str, str]:
    return dispute_open(
        customer=ctx.customer,
        transaction_reference=args.transaction,
        amount=args.amount,
        reason=args.reason,
        idempotency_key=idempotency_key,
    ).as_dict()


def selected(ctx: ActionContext, grant: Grant) -> dict[str, Any]:
    """The call a grant authorises: a click on a row disputes that row, in full, for
    the reason picked; a request, the amount it stated (else the full amount)."""
    txn = transaction_get(customer=ctx.customer, reference=grant.target)
    amount = grant.amount if grant.amount is not None else txn.amount
    return {"transaction": txn.reference, "amount": f"{amount:.2f}", "reason": grant.reason or DEFAULT_REASON}


def withheld(row: Mapping[str, object]) -> str:
    """A row past the dispute window says so instead of offering Dispute…."""
    posted = str(row.get("posted_at", ""))[:10]
    try:
        open_ = dispute_window_open(date.fromisoformat(posted))
    except ValueError:
        return ""
    return "" if open_ else str(WINDOW_CLOSED) % {"days": settings.BANKBOT_DISPUTE_WINDOW_DAYS}


WINDOW_CLOSED = gettext_lazy("Older than %(days)s days: it can no longer be disputed.")


def click_text(action: Mapping[str, str]) -> str:
    text = _("Dispute %(transaction)s") % {"transaction": action["transaction"]}
    if action.get("reason") in REASON_LABELS:
        text += f" — {REASON_LABELS[action['reason']]}"
    return text


# What the customer reads of a dispute's status: on its result card (as it is now,
# not as it was at the click) and in the bank's news when staff move it.
STATUS_SENTENCES: dict[str, Promise] = {
    Dispute.Status.OPENED: gettext_lazy(
        "Dispute %(ref)s is open. We will write to you here when it is reviewed."
    ),
    Dispute.Status.IN_REVIEW: gettext_lazy(
        "Dispute %(ref)s is being reviewed. We will write to you here when it is decided."
    ),
    Dispute.Status.RESOLVED: gettext_lazy("Dispute %(ref)s is resolved in your favour."),
    Dispute.Status.REJECTED: gettext_lazy("Dispute %(ref)s was rejected."),
}
STATUS_WORDS: dict[str, Promise] = {
    Dispute.Status.OPENED: gettext_lazy("open"),
    Dispute.Status.IN_REVIEW: gettext_lazy("being reviewed"),
    Dispute.Status.RESOLVED: gettext_lazy("resolved"),
    Dispute.Status.REJECTED: gettext_lazy("rejected"),
}


def status_sentence(reference: str, status: str) -> str:
    sentence = STATUS_SENTENCES.get(status, STATUS_SENTENCES[Dispute.Status.OPENED])
    return str(sentence) % {"ref": reference}


def outcome(result: Mapping[str, object]) -> Outcome:
    reference = str(result.get("dispute_id", ""))
    # The dispute as it is now: staff may have moved it since the click.
    status = Dispute.objects.filter(reference=reference).values_list("status", flat=True).first() or str(
        result.get("status", "")
    )
    return Outcome(
        status_sentence(reference, status),
        (
            (_("Dispute"), reference, "text"),
            (_("Status"), str(STATUS_WORDS.get(status, status)), "text"),
            (_("Amount"), str(result.get("amount_kzt", "")), "money"),
            (_("Transaction"), str(result.get("transaction", "")), "text"),
        ),
    )


SPEC = WriteTool(
    name=NAME,
    args=RaiseDisputeArgs,
    scopes=frozenset({READ_STATEMENTS, OPEN_DISPUTES}),
    run=run,
    target=TRANSACTION,
    check=check,
    grant=grant,
    bind=bind_transaction,
    from_click=from_click,
    summary=summary,
    describe_grant=describe_grant,
    autonomy="None: only proposed. Runs after the customer presses Confirm on the exact "
    "transaction, amount and reason shown. The amount is the one the customer "
    "stated, else the full amount; the reason is a fixed code, never free text.",
    sentences=Sentences(
        not_asked="The customer has not asked to dispute a transaction, so no dispute "
        "will be proposed. They can ask, or press Dispute on the statement row.",
        offer="Tell them what you understood; they can press Dispute on the statement row.",
        ambiguous="The customer's words fit more than one of their transactions, so none "
        "will be proposed: show them the candidates; they can press Dispute on "
        "the one they mean.",
        not_identified="The customer's words do not identify one of their transactions "
        "(every detail they gave must fit it); ask for the merchant, amount, "
        "date or reference, or they can press Dispute on the statement row.",
        closest="Show them the nearest candidates; they can press Dispute on the one they mean.",
    ),
    ui=UiAction(
        label=gettext_lazy("Dispute…"),
        aria_label=gettext_lazy("Dispute %(target)s…"),
        style="btn-outline",
        text=click_text,
        history=lambda a: f"I want to dispute transaction {a['transaction']}.",
        extras={"reason": frozenset(DISPUTE_REASONS)},
        offered=lambda row: not withheld(row),
        withheld=withheld,
    ),
    action=gettext_lazy("Dispute %(amount)s of transaction %(transaction)s"),
    outcome=outcome,
    selected=selected,
    arg_labels={
        "transaction": ArgLabel(gettext_lazy("Transaction")),
        "amount": ArgLabel(gettext_lazy("Amount"), "money"),
        "reason": ArgLabel(gettext_lazy("Reason"), "reason"),
    },
)
