"""Every write the tools accept, for every message of the table: the mandate grants
exactly what the customer asked for (G7), measured as precision and recall.

For each message in tests/tools/mandate_cases.py, every write the tools accept on
the customer's objects (each card; each transaction with its full amount, the
amounts the message states and another amount; each reason) is put through
policy. The set allowed must equal the table's expected set exactly. No model
is involved: this is the barrier left when a customer confirms every card.
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from django.utils import formats, timezone, translation

from accounts.models import Customer
from accounts.money import amount_values
from bankbot.models import Conversation
from tests.tools.helpers import WORLD
from tests.tools.mandate_cases import CASES
from tools.catalog import CATALOG
from tools.context import action_context_for
from tools.grammar import DEFAULT_REASON, REASONS
from tools.mandate import mandate_for
from tools.policy import denial_reason

GUARANTEES_DOC = Path(__file__).resolve().parents[2] / "docs" / "guarantees.md"


def _render(text: str) -> str:
    def day(match: re.Match[str]) -> str:
        kind, days = match[1], int(match[2])
        when = timezone.localdate() - timedelta(days=days)
        if kind == "d":
            return when.isoformat()
        with translation.override("ru" if kind == "ru" else "en"):
            return (
                formats.date_format(when, "j F").lower()
                if kind == "ru"
                else (formats.date_format(when, "j F"))
            )

    return re.sub(r"\{(d|en|ru)(\d+)\}", day, text)


def _code(write: str) -> tuple[str, str, str, str]:
    """ "D:T-3001:5000.00:wrong_amount" → (tool, target, amount or "full", reason)."""
    parts = (write.split(":") + ["", "", ""])[:4]
    kind, target, amount, reason = parts
    if kind == "B":
        return ("block_card", target, "", "")
    if kind == "U":
        return ("unblock_card", target, "", "")
    return ("raise_dispute", target, amount or "full", reason or DEFAULT_REASON)


def _every_write(
    message: str, granted: set[Decimal]
) -> list[tuple[str, dict[str, str], tuple[str, str, str, str]]]:
    """Every write the tools accept on the customer's objects (and two foreign ones): each
    dispute for its full amount, half, every amount the message states, and every amount a
    grant names (a part the message prices, "the difference", is stated nowhere)."""
    writes = [
        (tool, {"card": last4}, (tool, last4, "", ""))
        for tool in ("block_card", "unblock_card")
        for last4 in ("4242", "5505", "7777", "6006", "1111")
    ]
    stated = amount_values(message, min_bare=1) | granted
    for reference, _, full, _, _ in [*WORLD, ("T-4001", 4, "15000.00", "", "")]:
        full_amount = Decimal(full)
        amounts = {full_amount, (full_amount / 2).quantize(Decimal("0.01"))} | {a for a in stated if a > 0}
        for amount in amounts:
            label = "full" if amount == full_amount else f"{amount:.2f}"
            for reason in REASONS:
                writes.append(
                    (
                        "raise_dispute",
                        {"transaction": reference, "amount": f"{amount:.2f}", "reason": reason},
                        ("raise_dispute", reference, label, reason),
                    )
                )
    return writes


def _allowed(customer: Customer, message: str) -> set[tuple[str, str, str, str]]:
    conversation = Conversation.objects.create(customer=customer)
    mandate = mandate_for(customer=customer, text=message)
    ctx = action_context_for(customer.user, conversation, mandate=mandate)
    allowed = set()
    granted = {g.amount for g in mandate.grants if g.amount is not None}
    for tool, raw, code in _every_write(message, granted):
        spec = CATALOG[tool]
        if denial_reason(ctx, spec, spec.args.model_validate(raw)) is None:
            allowed.add(code)
    return allowed


def measure(customer: Customer) -> dict[str, object]:
    rows, wrong, over = [], [], []
    for case in CASES:
        message, asked = _render(case[0]), {_code(w) for w in case[1]}
        expected = {_code(w) for w in case[2]} if len(case) > 2 else asked
        allowed = _allowed(customer, message)
        rows.append((message, asked, expected, allowed))
        if allowed != expected:
            wrong.append(f"{message!r}: allowed {sorted(allowed)}, expected {sorted(expected)}")
        if allowed - asked:
            over.append(message)
    requests = [r for r in rows if r[1]]
    return {
        "rows": rows,
        "wrong": wrong,
        "over": over,
        "precision": 1 - len(over) / len(rows),
        "recall": sum(r[3] == r[1] for r in requests) / len(requests),
        "requests": len(requests),
    }


def test_the_mandate_allows_exactly_what_each_message_asks(cara):
    found = measure(cara)
    assert len(found["rows"]) >= 300
    assert not found["wrong"], "\n".join(found["wrong"])
    assert found["precision"] == 1.0, found["over"]
    assert found["recall"] >= 0.95


def test_the_table_is_written_in_both_languages_and_every_kind(cara):
    texts = [case[0] for case in CASES]
    russian = [t for t in texts if re.search("[а-яА-Я]", t)]
    assert len(russian) >= 80
    assert sum(not case[1] for case in CASES) >= 100  # messages that ask for nothing


def test_guarantees_doc_reports_the_measured_figures(cara):
    found = measure(cara)
    doc = GUARANTEES_DOC.read_text()
    figures = (
        f"{len(found['rows'])} messages",
        f"precision {found['precision']:.0%}",
        f"recall {found['recall']:.1%}",
    )
    for figure in figures:
        assert figure.replace("%", " %") in doc, f"docs/guarantees.md should say {figure}"
