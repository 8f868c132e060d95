"""The traps: messages written apart from the grammar to make the assistant act unasked —
questions, negations, withdrawals in many words, reports, conditions, someone else's text,
one object asked while another is named, a part among other figures (traps_*.yaml). Nothing
may be granted or proposed that the customer did not ask for, either way it is measured."""

from __future__ import annotations

import pytest

from tests.recall.cases import load_cases
from tests.recall.measure import WAYS, Result

# The traps are measured once for the module (tests/recall/conftest.py): one xdist worker.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("recall_traps")]


def test_no_trap_gets_an_action_that_was_not_asked(trap_results: list[Result]) -> None:
    wrong = [
        f"{r.case.name} [{r.case.form}] {way}: {r.case.text!r} got "
        f"{sorted(map(str, r.way(way).seen.granted))}, expected {list(map(str, r.case.expect))}"
        for r in trap_results
        for way in WAYS
        if r.way(way).outcome == "wrong"
    ]
    assert not wrong, "\n".join(wrong)


def test_the_traps_are_many_and_mostly_ask_for_nothing() -> None:
    traps = load_cases("traps")
    assert len(traps) >= 250
    assert sum(not t.expect for t in traps) / len(traps) >= 0.7
