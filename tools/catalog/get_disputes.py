"""get_disputes: the customer's own disputes, how far each has got, and what the bank
wrote to them about it. A read: it runs at once, on a path that cannot write (G2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import timezone
from pydantic import Field

from disputes.selectors import disputes_for_customer
from tools.catalog.base import ReadTool, ToolArgs
from tools.provenance import STAFF, External
from tools.scopes import READ_DISPUTES

if TYPE_CHECKING:
    from tools.context import ActionContext

NAME = "get_disputes"


class GetDisputesArgs(ToolArgs):
    """List the customer's own disputes, newest first (at most 10), or the one with the
    given reference: its transaction, amount, status (opened, in_review, resolved,
    rejected), when it was opened and last moved, and the bank's note to the customer."""

    dispute: str | None = Field(
        default=None, pattern=r"^[Dd]-\d{1,12}$", description="A dispute reference, e.g. D-881; omit for all."
    )


def get_disputes(ctx: ActionContext, args: GetDisputesArgs) -> dict[str, Any]:
    tz = timezone.get_current_timezone()
    rows = []
    for view in disputes_for_customer(customer=ctx.customer, reference=args.dispute):
        dispute = view.dispute
        rows.append(
            {
                "dispute_id": dispute.reference,
                "transaction": dispute.transaction.reference,
                "amount_kzt": f"{dispute.amount:.2f}",
                "status": str(dispute.status),
                "opened_on": dispute.created_at.astimezone(tz).date().isoformat(),
                "updated_on": view.updated_at.astimezone(tz).date().isoformat(),
                # Staff wrote it for the customer: data to relay, never an instruction (G6).
                "note_from_bank": External(view.customer_note, STAFF) if view.customer_note else "",
            }
        )
    return {"disputes": rows, "count": len(rows)}


SPEC = ReadTool(
    name=NAME,
    args=GetDisputesArgs,
    scopes=frozenset({READ_DISPUTES}),
    run=get_disputes,
    autonomy="Runs at once, on a path that cannot write; the customer's own disputes only, at most 10.",
)
