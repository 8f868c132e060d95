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

The ``Mandate`` record, with ``Grant`` and ``Unbound``, is defined in
``tools.binding``; this module builds it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from django.utils import timezone

from accounts.models import Customer
from accounts.money import normalised
from tools import grammar
from tools.binding import CANDIDATE_LIMIT, Grant, Mandate, Unbound, name_words
from tools.candidates import card_candidates, transaction_candidates
from tools.catalog import CATALOG, WriteTool
from tools.catalog.rows import card_row
from tools.grammar import DEFAULT_REASON, REASONS, Request, TargetWords, read_request

# A listed object that binds nothing keeps its buttons when a payment fits it this well
# (tools/candidates.py: a merchant's name nearly said, or its day).
LISTED_FIT = 0.5

__all__ = [
    "REASONS",
    "DEFAULT_REASON",
    "Grant",
    "Unbound",
    "Mandate",
    "mandate_for",
    "mandate_from_ui",
    "name_words",
    "bind_request",
    "read_request",
    "Request",
    "TargetWords",
    "CANDIDATE_LIMIT",
]


def mandate_from_ui(action: dict[str, str], *, source: str = "ui") -> Mandate:
    """An explicit click names exactly one object: its operation, and its target by the
    target's kind (``{"operation": …, "card": "4242"}``, ``"transaction": "T-10452"``),
    with any extras its button sends. Its tool's catalog entry turns it into the one
    grant (``from_click``)."""
    spec = CATALOG.get(str(action.get("operation")))
    grant = spec.from_click(action, source) if isinstance(spec, WriteTool) else None
    return Mandate(grants=(grant,) if grant else (), sources=(source,))


def mandate_for(
    *,
    customer: Customer,
    text: str = "",
    ui_action: dict[str, str] | None = None,
    source: str = "message",
    today: date | None = None,
) -> Mandate:
    """The mandate of one customer input: a click, or a message read and bound."""
    if ui_action:
        return mandate_from_ui(ui_action, source=source)
    today = today or timezone.localdate()
    reading = read_request(text, today=today)
    if reading.unsure:
        # Not a plain request: nothing is granted, but what the message describes
        # is offered with its buttons (a click is the mandate).
        return Mandate(
            unbound=tuple(
                _offering(customer, Unbound(op, "unsure", reading.unsure), _described(text, op, today))
                for op in sorted(reading.mentioned)
            ),
            sources=(source,),
        )
    grants: list[Grant] = []
    unbound: list[Unbound] = []
    for request in reading.requests:
        bound = bind_request(customer, request, source, offer=False)
        if isinstance(bound, Unbound) and bound.problem == "no_match" and request.own is not None:
            # The story around the request did not fit; what its own clause said may.
            alone = bind_request(customer, replace(request, target=request.own), source, offer=False)
            bound = alone if isinstance(alone, Grant) else bound
        if request.part is not None:
            bound = _as_the_part(customer, request, bound, source)
        if (
            request.listed
            and isinstance(bound, Unbound)
            and bound.problem in ("no_match", "no_target")
            and not transaction_candidates(customer, request.target, limit=1, min_fit=LISTED_FIT)
        ):
            # "… and tell me my balance" named no object: not a second request. One that
            # nearly names a payment ("… и еще волт за воскресенье") gets its buttons.
            continue
        if (
            isinstance(bound, Unbound)
            and bound.problem == "ambiguous"
            and request.both
            and len(bound.candidates) == 2
        ):
            # "Both Coffee Boom charges yesterday — dispute both": each of the two that fit.
            each = [
                bind_request(customer, replace(request, target=_only(request.target, c)), source)
                for c in bound.candidates
            ]
            if all(isinstance(b, Grant) for b in each):
                # Each bound by its reference here, not by the customer's words: not named.
                grants.extend(replace(b, named=False) for b in each if isinstance(b, Grant))
                continue
        if isinstance(bound, Grant) and _maybe_a_part(request, bound):
            bound = Unbound(
                request.operation, "unsure", "an amount said beside it may be the part meant", (bound.target,)
            )
        if isinstance(bound, Grant):
            grants.append(bound)
        else:
            unbound.append(
                _ranked_by_message(_offering(customer, bound, request.target), request, customer, text, today)
            )
    for operation in sorted(reading.offered):  # pointed at, never granted: buttons only
        unbound.append(
            _offering(
                customer,
                Unbound(operation, "unsure", "the customer pointed at it without asking for it"),
                _described(text, operation, today),
            )
        )
    return Mandate(grants=tuple(grants), unbound=tuple(unbound), sources=(source,))


_NO_TARGET_RANKED = (
    "the request itself named no object; those that best fit what the message says are offered"
)


def _only(target: TargetWords, candidate: str) -> TargetWords:
    """The target narrowed to one candidate: its reference, or its card's digits."""
    if candidate.startswith("T-"):
        return replace(target, references=frozenset({candidate}))
    return replace(target, cards=frozenset({candidate}))


def _as_the_part(
    customer: Customer, request: Request, bound: Grant | Unbound, source: str
) -> Grant | Unbound:
    """ "Dispute part of T-5005, 2,500": the one amount said is the part — never the whole
    ("dispute part of the 74,234 Technodom charge" names the charge, not the part)."""
    if isinstance(bound, Grant):
        return Unbound(
            request.operation,
            "unsure",
            "a part was asked for and the amount said is the whole charge's",
            (bound.target,),
        )
    said = request.part
    if bound.problem != "no_match" or said is None:
        return bound
    part = bind_request(
        customer,
        replace(request, target=replace(request.target, amounts=(), rounded=(), partial=(said,))),
        source,
        offer=False,
    )
    return part if isinstance(part, Grant) and part.amount == said else bound


def _maybe_a_part(request: Request, grant: Grant) -> bool:
    """A whole charge granted while a smaller amount was said elsewhere in the message
    ("… there was no pizza for 4 500. Refund it."): that may be the part meant."""
    whole = not (request.target.partial or request.target.half)
    if not whole or grant.amount is None:
        return False
    return (
        any(0 < amount < grant.amount for amount in request.loose_amounts)
        # a round figure well short of the row («…на 13 тыс не было, оспорьте эти 13 тыс»)
        or any(value > 0 and value + margin < grant.amount for value, margin in request.target.rounded)
    )


def bind_request(customer: Customer, request: Request, source: str, *, offer: bool = True) -> Grant | Unbound:
    """The one object of the customer's that the request names, or why there is none:
    bound as the operation's catalog entry binds its target (``offer``: with the
    candidates to offer instead; else the binding's own, e.g. the two that tie)."""
    spec = CATALOG.get(request.operation)
    if not isinstance(spec, WriteTool):
        return Unbound(request.operation, "no_target", "no tool performs this operation")
    bound = spec.bind(customer, request, source)
    if isinstance(bound, Grant) or not offer:
        return bound
    return _offering(customer, bound, request.target)


def _ranked_by_message(
    unbound: Unbound, request: Request, customer: Customer, text: str, today: date
) -> Unbound:
    """A request whose own words described nothing ("… хочу бабки назад"), offered the
    customer's objects ranked by what the whole message says about one (the story
    before it: "волт за 12 тыщ … не довез"), not merely the most recent."""
    if unbound.problem != "no_target" or not request.target.empty:
        return unbound
    described = _described(text, request.operation, today)
    if described.empty:
        return unbound
    offered = _offering(customer, Unbound(request.operation, "no_target", _NO_TARGET_RANKED), described)
    return offered if offered.candidates else unbound


def _offering(customer: Customer, unbound: Unbound, target: TargetWords) -> Unbound:
    """An unbound request with the candidates to offer instead: the customer's
    objects of that kind that best fit what they said, best first, at most five
    (tools/candidates.py). Offering grants nothing; only a click would."""
    spec = CATALOG.get(unbound.operation)
    if not isinstance(spec, WriteTool):
        return unbound
    if spec.target.kind == "transaction":
        return _transactions_offered(customer, unbound, target)
    if spec.target.kind == "card" and not unbound.candidates:
        return _cards_offered(customer, unbound, target, spec)
    return unbound


def _transactions_offered(customer: Customer, unbound: Unbound, target: TargetWords) -> Unbound:
    detail = unbound.detail
    if unbound.problem == "ambiguous" and unbound.candidates:
        ranked = transaction_candidates(customer, target, among=unbound.candidates)
        detail += " — which one?" if ranked else "; those are too old to dispute"
    elif unbound.problem == "unsure" and target.empty:
        return unbound  # nothing described: nothing to offer
    else:
        ranked = transaction_candidates(customer, target)
        if not ranked:
            detail += "; none of their transactions can still be disputed"
        elif target.empty:
            detail += "; their most recent ones are offered"
        elif unbound.problem != "unsure":
            detail += "; the nearest are offered"
    return Unbound(unbound.operation, unbound.problem, detail, ranked)


def _cards_offered(customer: Customer, unbound: Unbound, target: TargetWords, spec: WriteTool) -> Unbound:
    ranked = card_candidates(customer, target, spec.ui.offered, card_row)
    detail = unbound.detail
    if ranked and unbound.problem != "unsure":
        detail += "; the cards it applies to are offered"
    return Unbound(unbound.operation, unbound.problem, detail, ranked)


def _described(text: str, operation: str, today: date) -> TargetWords:
    """What a message that is not a plain request says about its object, read as
    the grammar reads a request's (its features: reference, digits, amount, date,
    words)."""
    text = grammar.plain_words(normalised(text or "").replace("ё", "е").replace("Ё", "Е"))
    return grammar._target(text, grammar.target_kind(operation), today)  # noqa: SLF001 (the grammar's reader)
