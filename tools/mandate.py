"""The mandate: the exact actions the customer asked for in this turn (G7).

Built only from the message the turn answers (read by ``tools.grammar``) or from
an explicit UI selection, never from tool output, so text planted in a
merchant's description cannot widen it. Each request is *bound* to one object
among the customer's own: every feature the customer gave (reference, card
digits, amount, date, merchant words) must match, and the match must be unique.
A bound request is a ``Grant`` for one exact action — target, amount, reason —
and is spent by the one proposal it authorises. A request that binds to none or
to several objects grants nothing; ``Unbound`` keeps what was understood, so the
assistant can offer the candidates' buttons instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils import timezone

from accounts.models import Customer
from tools.binding import CANDIDATE_LIMIT, SHOWN_CANDIDATES, Grant, Unbound, name_words
from tools.catalog import CATALOG
from tools.grammar import DEFAULT_REASON, REASONS, Request, TargetWords, read_request

__all__ = ["REASONS", "DEFAULT_REASON", "Grant", "Unbound", "Mandate", "mandate_for",
           "mandate_from_ui", "name_words", "bind_request", "read_request", "Request",
           "TargetWords", "CANDIDATE_LIMIT", "SHOWN_CANDIDATES"]


@dataclass(frozen=True)
class Mandate:
    grants: tuple[Grant, ...] = ()
    unbound: tuple[Unbound, ...] = ()
    sources: tuple[str, ...] = ()

    def allows(self, operation: str) -> bool:
        """Did the customer ask for this operation at all (bound or not)?"""
        return any(g.operation == operation for g in self.grants) or any(
            u.operation == operation for u in self.unbound)

    def grants_for(self, operation: str, target: str) -> list[Grant]:
        """The grants of this operation on this object (a tool's ``grant`` picks the
        one that authorises exactly its call)."""
        return [g for g in self.grants if g.operation == operation and g.target == target]

    def grant_for(self, operation: str, target: str) -> Grant | None:
        """The grant of this operation on this object, for a tool whose call is its
        target alone (a card to block or unblock)."""
        return next(iter(self.grants_for(operation, target)), None)

    def unbound_for(self, operation: str) -> Unbound | None:
        return next((u for u in self.unbound if u.operation == operation), None)

    def as_dict(self) -> dict[str, Any]:
        return {"grants": [g.as_dict() for g in self.grants],
                "unbound": [u.as_dict() for u in self.unbound], "sources": list(self.sources)}


def mandate_from_ui(action: dict[str, str], *, source: str = "ui") -> Mandate:
    """An explicit click names exactly one object: {"operation": "block_card", "card":
    "4242"}, {"operation": "raise_dispute", "transaction": "T-10452", "reason":
    "charged_twice"}. Its tool's catalog entry turns it into the one grant (a
    dispute chosen by a click is for the full amount, with the reason picked)."""
    spec = CATALOG.get(str(action.get("operation")))
    grant = spec.ui_grant(action, source) if spec is not None and spec.ui is not None else None
    return Mandate(grants=(grant,) if grant else (), sources=(source,))


def mandate_for(*, customer: Customer, text: str = "", ui_action: dict[str, str] | None = None,
                source: str = "message", today: date | None = None) -> Mandate:
    """The mandate of one customer input: a click, or a message read and bound."""
    if ui_action:
        return mandate_from_ui(ui_action, source=source)
    today = today or timezone.localdate()
    reading = read_request(text, today=today)
    if reading.unsure:
        return Mandate(unbound=tuple(Unbound(op, "unsure", reading.unsure)
                                     for op in sorted(reading.mentioned)), sources=(source,))
    grants: list[Grant] = []
    unbound: list[Unbound] = []
    for request in reading.requests:
        bound = bind_request(customer, request, source)
        if isinstance(bound, Grant):
            grants.append(bound)
        else:
            unbound.append(bound)
    for operation in sorted(reading.offered):  # pointed at, never granted: buttons only
        unbound.append(Unbound(operation, "unsure", "the customer pointed at it without "
                                                    "asking for it"))
    return Mandate(grants=tuple(grants), unbound=tuple(unbound), sources=(source,))


def bind_request(customer: Customer, request: Request, source: str) -> Grant | Unbound:
    """The one object of the customer's that the request names, or why there is none:
    bound as the operation's catalog entry binds its target."""
    spec = CATALOG.get(request.operation)
    if spec is None or spec.bind is None:
        return Unbound(request.operation, "no_target", "no tool performs this operation")
    return spec.bind(customer, request, source)
