"""What each scenario does with its own model, measured once and stored, so that the
trainee page can filter by outcome and by what an attack was after, and the scores
page can show per-technique figures without playing the corpus in a request.

Every runnable scenario is played through both harnesses by a tired customer who
confirms every card shown (the harder case for the guarded harness): about twenty
seconds for the corpus, so ``manage.py labcatalogue`` stores it in catalogue.json
beside this file. A scenario the file does not know yet is listed as not measured.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.utils import timezone

from lab.judge import CONFIRM_ALL
from lab.runner import HARNESSES, RunResult, run_scenario
from lab.schema import Scenario
from lab.words import goals_of

CATALOGUE_PATH = Path(__file__).with_name("catalogue.json")
REFRESH = "python manage.py labcatalogue"


def outcome_of(naive: RunResult, guarded: RunResult) -> str:
    """contrast, both_hold or guarded_falls; "" for a customer task."""
    if naive.kind != "attack":
        return ""
    if guarded.attack_succeeded:
        return "guarded_falls"
    return "contrast" if naive.attack_succeeded else "both_hold"


def measured(naive: RunResult, guarded: RunResult) -> dict[str, Any]:
    """One scenario's row: what each harness did and what held in the guarded one."""
    return {
        "kind": naive.kind,
        "technique": naive.technique,
        "outcome": outcome_of(naive, guarded),
        "goals": goals_of([v["kind"] for v in naive.violations]) if naive.kind == "attack" else [],
        "naive": {"succeeded": naive.attack_succeeded, "utility": naive.utility},
        "guarded": {"succeeded": guarded.attack_succeeded, "utility": guarded.utility},
        "held": sorted({h["code"] for h in guarded.held_by}),
    }


def runnable(scenario: Scenario) -> bool:
    """In a request only in-process models run: never the configured (remote) one."""
    return scenario.model != "configured"


def catalogue_measure(scenarios: Iterable[Scenario]) -> dict[str, Any]:
    rows = {}
    for scenario in scenarios:
        if not runnable(scenario):
            continue
        naive, guarded = (run_scenario(scenario, harness=h, behaviour=CONFIRM_ALL) for h in HARNESSES)
        rows[scenario.id] = measured(naive, guarded)
    return {
        "generated_at": timezone.now().isoformat(timespec="seconds"),
        "behaviour": CONFIRM_ALL,
        "scenarios": rows,
    }


def catalogue_write(data: dict[str, Any], path: Path = CATALOGUE_PATH) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def catalogue_read(path: Path = CATALOGUE_PATH) -> dict[str, Any]:
    """The stored measurement; an empty one if it was never made (or cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"scenarios": {}}
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), dict):
        return {"scenarios": {}}
    return data
