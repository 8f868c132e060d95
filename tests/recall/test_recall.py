"""The recall table (issue 22): requests written apart from the grammar, measured two
ways. Precision must hold on every case (nothing granted or proposed that was not
asked); recall is measured and docs/guarantees.md states it — its goals are not
asserted yet, only that the doc's figures are the measured ones."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import Card, Customer, Transaction
from tests.agent.fakes import ScriptedModel, call, text
from tests.recall.cases import HERE, NOT_A_REQUEST, Action, Case, load_cases
from tests.recall.measure import WAYS, Result, Seen, classify, end_to_end
from tests.recall.report import doc_rows, doc_rows_stated, doc_table, reasons
from tests.recall.world import ALL_CARDS, FULL_AMOUNTS, NOW

# The module's results are measured once, outside any test's transaction; the mark
# makes pytest-django set the test database up for them even when run alone. Its
# tests stay together on one pytest-xdist worker (--dist loadgroup), which measures once.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("recall_results")]

GUARANTEES_DOC = Path(__file__).resolve().parents[2] / "docs" / "guarantees.md"


def test_nothing_is_granted_or_proposed_that_was_not_asked(recall_results: list[Result]) -> None:
    wrong = [
        f"{r.case.name} {way}: {r.case.text!r} got "
        f"{sorted(map(str, r.way(way).seen.granted))}, expected {list(map(str, r.case.expect))}"
        for r in recall_results
        for way in WAYS
        if r.way(way).outcome == "wrong"
    ]
    assert not wrong, "\n".join(wrong)


def test_nothing_is_granted_unasked_on_the_held_out_sets(held_out_results: list[Result]) -> None:
    # Written by authors who never saw the grammar, and once measured blind: each wrong
    # they found (a part beside a whole, "last week") is a general rule now.
    wrong = [
        f"{r.case.name} {way}: {r.case.text!r} got "
        f"{sorted(map(str, r.way(way).seen.granted))}, expected {list(map(str, r.case.expect))}"
        for r in held_out_results
        for way in WAYS
        if r.way(way).outcome == "wrong"
    ]
    assert not wrong, "\n".join(wrong)
    known = set(ALL_CARDS) | set(FULL_AMOUNTS)
    assert [r.case.name for r in held_out_results if any(a.target not in known for a in r.case.expect)] == []


def test_guarantees_doc_states_the_measured_recall(recall_results: list[Result]) -> None:
    doc = GUARANTEES_DOC.read_text(encoding="utf-8")
    assert doc_rows_stated(doc) == doc_rows(recall_results), (
        "docs/guarantees.md should state (python -m tests.recall --doc):\n" + doc_table(recall_results)
    )
    assert reasons(recall_results) in doc, f"docs/guarantees.md should say {reasons(recall_results)}"


def test_every_case_names_objects_of_the_world() -> None:
    # A typo in a case file's expectation would silently count as a miss.
    cases = load_cases()
    known = set(ALL_CARDS) | set(FULL_AMOUNTS)
    assert [c.name for c in cases if any(a.target not in known for a in c.expect)] == []
    assert all(bool(c.expect) != (c.form == NOT_A_REQUEST) for c in cases)
    assert len([c for c in cases if c.form != NOT_A_REQUEST]) >= 400  # issue 22's minimum


def test_the_world_is_the_one_world_md_describes(recall_world: Customer) -> None:
    page = (HERE / "WORLD.md").read_text(encoding="utf-8")
    assert timezone.localtime() >= NOW and timezone.localdate() == NOW.date()
    assert "balance 250,000.00" in page and recall_world.accounts.get().balance == Decimal("250000")
    assert _world_md_cards(page) == {
        c.last4: (c.brand, c.status, c.blocked_by)
        for c in Card.objects.filter(account__customer=recall_world)
    }
    assert _world_md_transactions(page) == {
        t.reference: (
            _posted(t.posted_at, with_time=t.reference in ("T-5001", "T-5002", "T-5003", "T-5004")),
            t.merchant,
            t.amount,
            t.card.last4 if t.card else "",
        )
        for t in Transaction.objects.filter(account__customer=recall_world)
    }


def test_the_end_to_end_way_sees_the_candidates_buttons(recall_world: Customer) -> None:
    # The offline model rarely lets a write be denied with candidates today; a scripted
    # one that proposes a guess shows the way reads the chat's buttons as one click.
    case = Case(
        "en", 0, "dispute the Magnum payment", "ambiguous", (Action("raise_dispute", "T-5005", "full"),)
    )
    model = ScriptedModel(
        call("raise_dispute", {"transaction": "T-5005", "amount": "8400.00", "reason": "not_recognised"}),
        text("Which Magnum payment do you mean?"),
    )
    seen = end_to_end(recall_world, case, client=model.client())
    assert seen.granted == frozenset()
    assert {("raise_dispute", "T-5005"), ("raise_dispute", "T-5006")} <= seen.buttons
    assert classify(case, seen).outcome == "one_click"


@pytest.mark.parametrize(
    ("granted", "buttons", "outcome"),
    [
        # Exact: target and amount; the reason (not the author's here) is reported apart.
        (
            {Action("raise_dispute", "T-5006", "5000.00", "wrong_amount"), Action("block_card", "5505")},
            set(),
            "exact",
        ),
        ({Action("raise_dispute", "T-5006", "full", "not_recognised")}, set(), "wrong"),  # the amount
        (set(), {("raise_dispute", "T-5006"), ("block_card", "5505")}, "one_click"),
        (set(), {("block_card", "5505")}, "nothing"),
        ({Action("block_card", "5505")}, {("raise_dispute", "T-5006")}, "one_click"),
        ({Action("block_card", "5505"), Action("block_card", "4242")}, set(), "wrong"),
    ],
)
def test_outcomes(granted: set[Action], buttons: set[tuple[str, str]], outcome: str) -> None:
    case = Case(
        "en",
        0,
        "",
        "two",
        (Action("raise_dispute", "T-5006", "5000.00", "not_received"), Action("block_card", "5505")),
    )
    verdict = classify(case, Seen(frozenset(granted), frozenset(buttons)))
    assert verdict.outcome == outcome
    assert verdict.reason_as_asked is (False if outcome == "exact" else None)


def test_a_message_that_asks_for_nothing_may_be_granted_nothing() -> None:
    case = Case("en", 0, "how long does a dispute take?", NOT_A_REQUEST, ())
    assert classify(case, Seen(frozenset(), frozenset({("block_card", "4242")}))).outcome == "exact"
    assert classify(case, Seen(frozenset({Action("block_card", "4242")}), frozenset())).outcome == "wrong"


# --- WORLD.md, read as its tables ----------------------------------------------------------


def _table_rows(page: str, first_cell: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in page.splitlines()
        if re.match(rf"^\|\s*{first_cell}\s*\|", line)
    ]


def _world_md_cards(page: str) -> dict[str, tuple[str, str, str]]:
    found = {}
    for last4, product, state in _table_rows(page, r"\d{4}"):
        blocked = state.startswith("blocked")
        found[last4] = (product, "blocked" if blocked else "active", "customer" if blocked else "")
    return found


def _world_md_transactions(page: str) -> dict[str, tuple[str, str, Decimal, str]]:
    found = {}
    for reference, when, merchant, amount, card in _table_rows(page, r"T-\d+"):
        day = re.search(r"(\d{1,2}) ([A-Z][a-z]{2})", when)
        time = re.search(r"\d{2}:\d{2}", when)
        assert day is not None
        found[reference] = (
            f"{int(day[1])} {day[2]}" + (f" {time[0]}" if time else ""),
            merchant.split(" (")[0],
            Decimal(amount.replace(",", "")),
            card[:4],
        )
    return found


def _posted(moment: datetime, *, with_time: bool) -> str:
    local = timezone.localtime(moment)
    return f"{local.day} {local:%b}" + (f" {local:%H:%M}" if with_time else "")
