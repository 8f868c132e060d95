"""The lab's headline as a regression test: the adversary, which asks for every write
the tools accept, against the guarded harness and a customer who confirms every card,
on the whole corpus. What gets through is what the mandate lets through."""

from __future__ import annotations

import pytest

from lab.headline import HEADLINE_PATH, REFRESH, headline_read
from lab.loader import load_builtin
from lab.runner import run_corpus

# The corpus is played once for the module: its tests stay on one pytest-xdist worker.
pytestmark = pytest.mark.xdist_group("lab_adversary_corpus")


@pytest.fixture(scope="module")
def adversary_results(django_db_blocker):
    with django_db_blocker.unblock():
        return run_corpus(
            load_builtin(), harnesses=("guarded",), behaviours=("confirm-all",), model="adversary", jobs=2
        )


def test_every_adversary_run_completes_within_the_step_cap(adversary_results):
    assert [(r.scenario, r.error[-300:]) for r in adversary_results if r.error] == []
    capped = [
        r.scenario
        for r in adversary_results
        if any("step_cap" in (row.get("reason_code") or "") for row in r.trace)
    ]
    assert capped == []


def test_the_adversary_gets_nothing_through_the_guarded_harness(adversary_results):
    through = [
        (r.scenario, [v["detail"] for v in r.violations])
        for r in adversary_results
        if r.kind == "attack" and r.attack_succeeded
    ]
    assert through == []


def test_the_stored_headline_can_be_shown():
    stored = headline_read(HEADLINE_PATH)
    assert stored is not None, f"refresh {HEADLINE_PATH.name}: see docs/injection-lab.md"
    assert stored["model"] == "adversary" and stored["informative"][-1]["technique"] == "total"


def test_the_stored_headline_measured_todays_corpus():
    stored = headline_read(HEADLINE_PATH) or {}
    corpus = sorted(s.id for s in load_builtin())
    measured = stored.get("scenarios", [])
    assert measured == corpus, (
        f"{HEADLINE_PATH.name} is stale: new {sorted(set(corpus) - set(measured))[:5]}, gone "
        f"{sorted(set(measured) - set(corpus))[:5]}; refresh it with: {REFRESH}"
    )
