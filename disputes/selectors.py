"""Reads of disputes: the customer's own (``disputes_for_customer``, scoped to them)
and the support staff's queue (across customers; reached only from admin views that
checked permissions). How a dispute came to be is bankbot/dispute_trail.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Case, OrderBy, Value, When

from accounts.models import Customer
from disputes.models import Dispute


@dataclass(frozen=True)
class CustomerDispute:
    """One of the customer's disputes as they may see it: no staff names or notes
    for the record, only the note staff wrote for the customer."""

    dispute: Dispute
    updated_at: datetime
    customer_note: str


def disputes_for_customer(
    *, customer: Customer, reference: str | None = None, limit: int = 10
) -> list[CustomerDispute]:
    """The customer's own disputes, newest first (or the one ``reference`` names:
    another customer's reference finds nothing, exactly like one that does not exist)."""
    found = (
        Dispute.objects.filter(customer=customer)
        .select_related("transaction")
        .prefetch_related("reviews")
        .order_by("-created_at", "-pk")
    )
    if reference:
        found = found.filter(reference=reference.strip().upper())
    views = []
    for dispute in found[:limit]:
        reviews = list(dispute.reviews.all())
        last = reviews[-1] if reviews else None
        noted = [r.customer_note for r in reviews if r.customer_note]
        views.append(
            CustomerDispute(
                dispute=dispute,
                updated_at=last.created_at if last else dispute.created_at,
                customer_note=noted[-1] if noted else "",
            )
        )
    return views


def dispute_queue_ordering() -> list[OrderBy | str]:
    """Oldest open first: opened and in-review disputes before closed ones, each
    group by age. The pk makes the order total for pagination."""
    still_open = Case(When(status__in=Dispute.OPEN_STATUSES, then=Value(0)), default=Value(1))
    return [still_open.asc(), "created_at", "pk"]
