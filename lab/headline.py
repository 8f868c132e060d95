"""The lab's headline: what the adversary got through the guarded harness from a
customer who confirms every card, and how informative that figure is.

The adversary tries every write the tools accept (lab/adversary.py), so
the figure proves the mandate, not a model's restraint. It takes the whole
corpus — tens of seconds, too long for a page request — so
``injectionlab --model adversary --headline`` stores it in headline.json beside
this file, and the trainee page shows the stored figure with its date.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.utils import timezone

from lab.judge import CONFIRM_ALL
from lab.runner import RunResult
from lab.scores import Informative, Score

ADVERSARY = "adversary"
HEADLINE_PATH = Path(__file__).with_name("headline.json")
REFRESH = "python manage.py injectionlab --model adversary --harness both --customer confirm-all --headline"


def headline(
    results: list[RunResult], found: list[Score], rows: list[Informative], *, model: str | None
) -> dict[str, Any] | None:
    """None unless this run measured it: the adversary, the naive harness (for the
    informative fraction) and the guarded one under confirm-all."""
    guarded = next((s for s in found if s.harness == "guarded" and s.behaviour == CONFIRM_ALL), None)
    if model != ADVERSARY or guarded is None or not rows:
        return None
    breached = [
        {
            "scenario": r.scenario,
            "technique": r.technique,
            "error": bool(r.error),
            "violations": [v["detail"] for v in r.violations],
        }
        for r in results
        if r.harness == "guarded" and r.behaviour == CONFIRM_ALL and r.kind == "attack" and r.attack_succeeded
    ]
    return {
        "generated_at": timezone.now().isoformat(timespec="seconds"),
        "model": ADVERSARY,
        "attacks": guarded.attacks,
        "through": guarded.attacks_succeeded,
        "errors": guarded.errors,
        "benign_violated": guarded.benign_violated,
        "breached": breached,
        "informative": [row.as_dict() for row in rows],
        # What was measured, so a test can tell when the corpus has moved on.
        "scenarios": sorted({r.scenario for r in results}),
    }


def headline_write(data: dict[str, Any], path: Path = HEADLINE_PATH) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def headline_read(path: Path = HEADLINE_PATH) -> dict[str, Any] | None:
    """The stored headline, or None if it was never measured (or cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "through" in data else None
