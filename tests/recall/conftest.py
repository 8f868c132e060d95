"""The recall world as fixtures: per test, or measured once for the module."""

from __future__ import annotations

import time

import pytest

from accounts.models import Customer
from tests.recall.cases import load_cases
from tests.recall.measure import Result, measure
from tests.recall.report import table
from tests.recall.world import NOW, build_world


@pytest.fixture
def recall_world(db: None, time_machine: object) -> Customer:
    """Dana's world of WORLD.md at its "now" (Wed 18 Nov 2026, 15:00 Almaty); returns Dana."""
    time_machine.move_to(NOW, tick=True)  # type: ignore[attr-defined]
    return build_world()


@pytest.fixture(scope="module")
def recall_results(django_db_setup: None, django_db_blocker: object) -> list[Result]:
    """Every case measured both ways, once: a turn per case is the slow part, and the
    tests of a module only read the results. The world is built and rolled back inside."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        started = time.perf_counter()
        results = measure()
        seconds = time.perf_counter() - started
    print(f"\n{table(results, seconds)}")  # shown with -s: the table without a second run
    return results


@pytest.fixture(scope="module")
def trap_results(django_db_setup: None, django_db_blocker: object) -> list[Result]:
    """The traps (traps_*.yaml) measured both ways, once for the module."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        return measure(load_cases("traps"))


@pytest.fixture(scope="module")
def held_out_results(django_db_setup: None, django_db_blocker: object) -> list[Result]:
    """The held-out sets (holdout_, fresh_, unseen_, blind_, sealed_*.yaml) measured both
    ways, once."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        return measure(
            load_cases("holdout")
            + load_cases("fresh")
            + load_cases("unseen")
            + load_cases("blind")
            + load_cases("sealed")
        )
