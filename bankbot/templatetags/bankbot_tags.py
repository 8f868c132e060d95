"""Template helpers for the chat: money, dates, the CSRF header, and the
confirm card's view of a stored Proposal (never of model text)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django import template
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from accounts.money import kzt_text
from disputes.reasons import REASON_LABELS
from tools.catalog import CATALOG, ArgLabel, ui_actions_for
from tools.models import Proposal
from tools.proposals import proposal_said, proposal_state
from tools.provenance import MENTIONS_TARGET

register = template.Library()


@register.filter
def kzt(value: Any) -> str:
    """15000.5 → "15,000.50 ₸" (English) or "15 000,50 ₸" (Russian): accounts/money.py's
    one formatter, which the answers use too. Its values are stored figures and
    canonical tool arguments ("15000.00"); amounts a person typed are read there."""
    return kzt_text(value)


@register.filter
def isodate(value: Any) -> date | Any:
    """A tool result's "2026-10-03" as a date, for the |date filter."""
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return value


@register.filter
def month_name(value: Any) -> str:
    """"2026-10" → "October 2026" ("октябрь 2026" in Russian, as after "за")."""
    try:
        first = date.fromisoformat(f"{str(value)[:7]}-01")
    except ValueError:
        return str(value)
    label = formats.date_format(first, "F Y")
    if (translation.get_language() or "en").startswith("ru"):
        label = label[:1].lower() + label[1:]
    return label


@register.filter
def is_current_month(value: Any) -> bool:
    """Whether "2026-10" is this month in the bank's time zone (its statement may still grow)."""
    return str(value)[:7] == f"{timezone.localdate():%Y-%m}"


@register.filter
def minutes(value: Any) -> int:
    """A timedelta in whole minutes, rounded up (axes' cool-off time)."""
    seconds = value.total_seconds() if isinstance(value, timedelta) else 0
    return max(1, -(-int(seconds) // 60))


@register.simple_tag(takes_context=True)
def hx_csrf_headers(context: template.Context) -> str:
    """The JSON for <body hx-headers>: every htmx request carries the CSRF token.
    Auto-escaped by the tag, so it sits safely in a double-quoted attribute."""
    return json.dumps({"X-CSRFToken": str(context.get("csrf_token", ""))})


@register.simple_tag
def new_client_id() -> str:
    """A fresh id for a chat form, so the server stores a resent frame once."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Picker:
    """Another value for one of a pending card's arguments, chosen like a click on its
    row's button: a new proposal for the same object with that value."""

    operation: str
    target: str
    field: str
    label: str
    choices: list[tuple[str, str]]
    current: str


@dataclass(frozen=True)
class Warned:
    """An external text the card quotes, and why it could have shaped the proposal."""

    excerpt: str
    why: str


@dataclass
class ProposalCard:
    proposal: Proposal
    state: str  # pending | executed | failed | declined | expired
    rows: list[tuple[str, str]]
    action: str = ""  # the action in the page's language, from the stored arguments
    said: str = ""  # what the card's headline says (tools/proposals.py, proposal_said)
    authors: str = ""
    excerpts: list[Warned] = field(default_factory=list)
    more: int = 0  # further excerpts not shown
    result: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    outcome: str = ""  # the result in a sentence, in the page's language
    outcome_rows: list[tuple[str, str]] = field(default_factory=list)
    picker: Picker | None = None  # a pending card's other choices (a dispute's reason)

    @property
    def dom_id(self) -> str:
        return f"proposal-{self.proposal.public_id}"


def _shown(kind: str, value: Any) -> str:
    """An argument's or a result's value as a person reads it (its catalog kind)."""
    if kind == "card":
        return f"•••• {value}"
    if kind == "money":
        return kzt(value)
    if kind == "reason":
        return str(REASON_LABELS.get(str(value), value))
    return str(value)
_AUTHORS = {
    "merchant": lambda: _("a merchant"),
    "staff": lambda: _("bank staff"),
    "customer": lambda: _("another customer"),
    "bank": lambda: _("the bank"),
}


@register.simple_tag
def proposal_card(proposal: Proposal) -> ProposalCard:
    """What the confirm card shows, from the stored proposal alone."""
    spec = CATALOG.get(proposal.tool)
    labels = spec.arg_labels if spec is not None else {}
    rows = []
    for key, value in proposal.args.items():
        arg = labels.get(key, ArgLabel(key))
        rows.append((str(arg.label), _shown(arg.kind, value)))
    # Only the texts that could have shaped it (tools/provenance.py, shown_because);
    # admin lists every text read before it.
    sources = [s for s in proposal.external_sources or [] if s.get("shown") and s.get("excerpt")]
    authors = sorted({_AUTHORS.get(s.get("author"), lambda: _("someone else"))() for s in sources})
    why: dict[str, list[str]] = {}
    for source in sources:
        why.setdefault(source["excerpt"], []).extend(source["shown"])
    # Texts that name the target first, then the longest: a merchant's name is rarely
    # where instructions hide.
    excerpts = sorted((Warned(excerpt, _why(spec, reasons)) for excerpt, reasons in why.items()),
                      key=lambda w: (MENTIONS_TARGET not in why[w.excerpt], -len(w.excerpt)))
    response = proposal.result or {}
    states: dict[str, str] = {
        Proposal.Status.PENDING: "pending",
        Proposal.Status.EXECUTED: "executed",
        Proposal.Status.FAILED: "failed",
        Proposal.Status.DECLINED: "declined",
        Proposal.Status.EXPIRED: "expired",
    }
    state = states.get(proposal_state(proposal), "pending")
    error = (response.get("error") or {}).get("message", "") if state == "failed" else ""
    result = response.get("result") or {}
    outcome = spec.outcome(result) if spec is not None and spec.outcome and result else None
    return ProposalCard(
        proposal=proposal, state=state, rows=rows,
        action=spec.action_text(proposal.args) if spec is not None else "",
        said=proposal_said(proposal),
        authors=", ".join(authors),
        excerpts=excerpts[:3], more=max(0, len(excerpts) - 3),
        result=result, error=error,
        outcome=outcome.sentence if outcome else "",
        outcome_rows=[(label, _shown(kind, value)) for label, value, kind in outcome.rows]
        if outcome else [],
        picker=_picker(spec, proposal) if state == "pending" and spec is not None else None,
    )


def _why(spec: Any, reasons: list[str]) -> str:
    """Why the card quotes a text, in the page's language."""
    if MENTIONS_TARGET in reasons:
        if spec is not None and spec.target is not None and spec.target.kind == "card":
            return _("It names this card.")
        return _("It is about this transaction.")
    return _("It reads like an instruction, and the assistant read it just before proposing this.")


def _picker(spec: Any, proposal: Proposal) -> Picker | None:
    """The first extra field its button may send (a dispute's reason), as a choice."""
    if spec.ui is None or spec.target is None or not spec.ui.extras:
        return None
    name, codes = next(iter(spec.ui.extras.items()))
    arg = spec.arg_labels.get(name, ArgLabel(name))
    return Picker(operation=spec.name, target=str(proposal.args.get(spec.target.kind, "")),
                  field=name, label=str(arg.label),
                  choices=sorted(((code, _shown(arg.kind, code)) for code in codes),
                                 key=lambda choice: choice[1]),
                  current=str(proposal.args.get(name, "")))


@dataclass(frozen=True)
class RowAction:
    operation: str
    target: str
    label: str
    aria_label: str
    style: str
    withheld: str = ""  # why there is no button on this row (shown instead)


@register.simple_tag
def row_actions(kind: str, row: dict[str, Any]) -> list[RowAction]:
    """The buttons on one row of a card list or a statement: each write tool whose
    button belongs on it (Block… on an active card, Unblock… on a card the customer
    blocked, Dispute… on a transaction). The click is only a request: the
    harness checks it like any other."""
    actions = []
    for spec in ui_actions_for(kind, row, withheld=True):
        assert spec.ui is not None and spec.target is not None
        target = str(row.get(spec.target.key, ""))
        actions.append(RowAction(spec.name, target, str(spec.ui.label),
                                 str(spec.ui.aria_label) % {"target": target}, spec.ui.style,
                                 withheld=spec.ui.withheld(row)))
    return actions
