"""The confirm card's and the row buttons' view of the data: what a card shows, from the
stored Proposal alone (never from model text), which write buttons a row gets, and what
the disputes table says of each disputed transaction. Plain functions, typed and tested
as such; the template tags (templatetags/bankbot_tags.py) only call them."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import Customer
from accounts.money import kzt_text
from accounts.selectors import customer_transactions
from accounts.text import reveal_hidden
from bankbot.handover import staff_name
from bankbot.models import Message
from disputes.models import Dispute
from disputes.reasons import REASON_LABELS
from tools.catalog import CATALOG, ArgLabel, WriteTool, ui_actions_for
from tools.models import Proposal
from tools.proposals import proposal_said, proposal_state
from tools.provenance import MENTIONS_TARGET, External


@dataclass(frozen=True)
class Picker:
    """Another value for one of a pending card's arguments, chosen like a click on its
    row's button: a new proposal for the same object with that value."""

    operation: str
    target: str
    field: str
    label: str
    question: str  # what the choice asks, in the page's language ("Another reason?")
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
    state: str  # pending | executed | failed | declined | expired | superseded
    rows: list[tuple[str, str]]
    action: str = ""  # the action in the page's language, from the stored arguments
    said: str = ""  # what the card's headline says (tools/proposals.py, proposal_said)
    authors: str = ""
    excerpts: list[Warned] = field(default_factory=list)
    more: int = 0  # further excerpts not shown
    result: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    outcome: str = ""  # the result in a sentence, in the page's language
    outcome_after: str = ""  # what it means for the customer now, said apart
    outcome_rows: list[tuple[str, str]] = field(default_factory=list)
    picker: Picker | None = None  # a pending card's other choices (a dispute's reason)
    # An expired card's one click to ask again: the customer's request, sent again as
    # their message, so the action is proposed afresh and needs a fresh Confirm.
    ask_again: str = ""
    # A support staff member's name when staff proposed it ("Proposed by Aigerim from
    # support"); "" when the assistant did.
    proposed_by: str = ""

    @property
    def dom_id(self) -> str:
        return f"proposal-{self.proposal.public_id}"


def _shown(kind: str, value: object) -> str:
    """An argument's or a result's value as a person reads it (its catalog kind)."""
    if kind == "card":
        return f"•••• {value}"
    if kind == "money":
        return kzt_text(value)
    if kind == "reason":
        return str(REASON_LABELS.get(str(value), value))
    return str(value)


_AUTHORS = {
    "merchant": lambda: _("a merchant"),
    "staff": lambda: _("bank staff"),
    "customer": lambda: _("another customer"),
    "bank": lambda: _("the bank"),
}


def proposal_card(proposal: Proposal) -> ProposalCard:
    """What the confirm card shows, from the stored proposal alone: its arguments, and
    what its target is in the customer's own data (a card's brand; a transaction's
    merchant and date), each in the page's language."""
    found = CATALOG.get(proposal.tool)
    spec = found if isinstance(found, WriteTool) else None
    labels = spec.arg_labels if spec is not None else {}
    kind = spec.target.kind if spec is not None else None
    target = _target_row(spec, proposal)
    rows: list[tuple[str, str]] = []
    for key, value in proposal.args.items():
        arg = labels.get(key, ArgLabel(key))
        if kind is not None and key == kind and target is not None:
            rows += _target_rows(kind, str(arg.label), _shown(arg.kind, value), target)
        else:
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
    excerpts = sorted(
        (Warned(excerpt, _why(spec, reasons)) for excerpt, reasons in why.items()),
        key=lambda w: (MENTIONS_TARGET not in why[w.excerpt], -len(w.excerpt)),
    )
    response = proposal.result or {}
    state = proposal_state(proposal)  # pending | executed | failed | declined | expired | superseded
    error = (response.get("error") or {}).get("message", "") if state == "failed" else ""
    result = response.get("result") or {}
    outcome = spec.outcome(result) if spec is not None and result else None
    return ProposalCard(
        proposal=proposal,
        state=state,
        rows=rows,
        action=spec.action_text(proposal.args) if spec is not None else "",
        said=_headline(spec, proposal, target) or proposal_said(proposal),
        authors=", ".join(authors),
        excerpts=excerpts[:3],
        more=max(0, len(excerpts) - 3),
        result=result,
        error=error,
        outcome=outcome.sentence if outcome else "",
        outcome_after=outcome.after if outcome else "",
        outcome_rows=[(label, _shown(kind, value)) for label, value, kind in outcome.rows] if outcome else [],
        picker=_picker(spec, proposal) if state == "pending" and spec is not None else None,
        # A staff proposal answered no message of the customer's: nothing to ask again.
        ask_again=_asked(proposal) if state == "expired" and proposal.proposed_by_id is None else "",
        proposed_by=staff_name(proposal.proposed_by) if proposal.proposed_by is not None else "",
    )


def _asked(proposal: Proposal) -> str:
    """The customer's message that the proposal answered: their latest before it."""
    if proposal.conversation_id is None:
        return ""
    message = (
        Message.objects.filter(
            conversation_id=proposal.conversation_id,
            role=Message.Role.CUSTOMER,
            created_at__lte=proposal.created_at,
        )
        .exclude(text="")
        .order_by("-created_at", "-id")
        .first()
    )
    return message.text if message is not None else ""


def _target_row(spec: WriteTool | None, proposal: Proposal) -> dict[str, Any] | None:
    """The row of the customer's own object the proposal acts on (its target's rows,
    as the catalog lists them), or None (no target, or it is gone)."""
    if spec is None:
        return None
    name = str(proposal.args.get(spec.target.kind, ""))
    found = spec.target.rows(proposal.customer, [spec.target.normal(name)]) if name else []
    return found[0] if found else None


def _headline(spec: WriteTool | None, proposal: Proposal, target: Mapping[str, object] | None) -> str:
    """A dispute's headline in the page's language, from its stored arguments and its
    row: "Dispute 74,234.00 ₸ at Technodom on 16 Sep 2026 — T-10022". "" for any other
    action, or a row that is gone: the action's own words then (``proposal_said``).
    The stored English summary stays as it is, the record staff read."""
    if spec is None or spec.target.kind != "transaction" or target is None:
        return ""
    merchant = target.get("merchant")
    merchant = merchant.text if isinstance(merchant, External) else merchant
    amount = proposal.args.get("amount")
    try:
        posted = date.fromisoformat(str(target.get("posted_at")))
    except ValueError:
        return ""
    if not merchant or amount is None:
        return ""
    return _("Dispute %(amount)s at %(merchant)s on %(date)s — %(reference)s") % {
        "amount": kzt_text(amount),
        "merchant": reveal_hidden(str(merchant)),
        "date": formats.date_format(posted, "j M Y"),
        "reference": proposal.args.get("transaction", ""),
    }


def _target_rows(kind: str, label: str, shown: str, row: Mapping[str, object]) -> list[tuple[str, str]]:
    """The target's row on the card, and what its kind adds: "Card: Visa •••• 4242";
    "Transaction: T-1001", "Merchant: Magnum", "Date: 3 Nov 2026". The merchant wrote
    its name: its invisible and bidi control characters are shown as markers."""
    if kind == "card":
        return [(label, str(row.get("label") or shown))]
    rows = [(label, shown)]
    if kind == "transaction":
        merchant = row.get("merchant")
        merchant = merchant.text if isinstance(merchant, External) else merchant
        if merchant:
            rows.append((_("Merchant"), reveal_hidden(str(merchant))))
        with contextlib.suppress(ValueError):
            posted = date.fromisoformat(str(row.get("posted_at")))
            rows.append((_("Date"), formats.date_format(posted, "j M Y")))
    return rows


def _why(spec: WriteTool | None, reasons: list[str]) -> str:
    """Why the card quotes a text, in the page's language."""
    if MENTIONS_TARGET in reasons:
        if spec is not None and spec.target.kind == "card":
            return _("It names this card.")
        return _("It is about this transaction.")
    return _("It reads like an instruction, and the assistant read it just before proposing this.")


def _picker(spec: WriteTool, proposal: Proposal) -> Picker | None:
    """The first extra field its button may send (a dispute's reason), as a choice."""
    if not spec.ui.extras:
        return None
    name, codes = next(iter(spec.ui.extras.items()))
    arg = spec.arg_labels.get(name, ArgLabel(name))
    return Picker(
        operation=spec.name,
        target=str(proposal.args.get(spec.target.kind, "")),
        field=name,
        label=str(arg.label),
        question=_picker_question(arg),
        choices=sorted(((code, _shown(arg.kind, code)) for code in codes), key=lambda choice: choice[1]),
        current=str(proposal.args.get(name, "")),
    )


def _picker_question(arg: ArgLabel) -> str:
    """The picker's label. A dispute's reason has its own sentence ("Another reason?",
    «Другая причина?»); any other value's says which it is ("Another amount?") in a
    form that needs no grammatical gender in Russian."""
    if arg.kind == "reason":
        return _("Another reason?")
    return _("Another %(label)s?") % {"label": str(arg.label).lower()}


@dataclass(frozen=True)
class RowAction:
    operation: str
    target: str
    label: str
    aria_label: str
    style: str
    withheld: str = ""  # why there is no button on this row (shown instead)


def row_actions(kind: str, row: Mapping[str, object]) -> list[RowAction]:
    """The buttons on one row of a card list or a statement: each write tool whose
    button belongs on it (Block… on an active card, Unblock… on a card the customer
    blocked, Dispute… on a transaction). The click is only a request: the
    harness checks it like any other."""
    actions = []
    for spec in ui_actions_for(kind, row, withheld=True):
        if spec.name == "raise_dispute" and row.get("dispute_open"):
            continue  # its dispute is open: the row shows its status instead
        target = str(row.get(spec.target.key, ""))
        actions.append(
            RowAction(
                spec.name,
                target,
                str(spec.ui.label),
                str(spec.ui.aria_label) % {"target": target},
                spec.ui.style,
                withheld=spec.ui.withheld(row),
            )
        )
    return actions


def transactions_shown(
    rows: Sequence[Mapping[str, object]], customer: Customer | None
) -> list[dict[str, object]]:
    """A statement's rows (or found transactions), each with its transaction's dispute
    as it is now, if the customer has one: the open one, else the latest decided
    (``dispute_status``). ``dispute_open`` withholds a second Dispute… (row_actions)."""
    references = [str(row.get("reference", "")) for row in rows]
    latest: dict[str, str] = {}
    if customer is not None and any(references):
        for reference, status in (
            Dispute.objects.filter(customer=customer, transaction__reference__in=references)
            .order_by("created_at", "pk")
            .values_list("transaction__reference", "status")
        ):
            if latest.get(reference) not in Dispute.OPEN_STATUSES:
                latest[reference] = status
    shown: list[dict[str, object]] = []
    for row, reference in zip(rows, references, strict=True):
        found = latest.get(reference)
        extra = {"dispute_status": found, "dispute_open": found in Dispute.OPEN_STATUSES} if found else {}
        shown.append({**row, **extra})
    return shown


def disputes_shown(
    rows: Sequence[Mapping[str, object]], customer: Customer | None
) -> list[dict[str, object]]:
    """The disputes table's rows, each with its transaction's merchant and date (local
    "YYYY-MM-DD") from the customer's own transactions, so the table names what was
    disputed, not only references. Without a customer, or for a transaction not
    theirs, a row is as it was."""
    references = [str(row.get("transaction", "")) for row in rows]
    found = {}
    if customer is not None and any(references):
        for reference, merchant, posted_at in (
            customer_transactions(customer=customer)
            .filter(reference__in=references)
            .values_list("reference", "merchant", "posted_at")
        ):
            found[reference] = {"merchant": merchant, "posted_at": timezone.localdate(posted_at).isoformat()}
    return [{**row, **found.get(reference, {})} for row, reference in zip(rows, references, strict=True)]
