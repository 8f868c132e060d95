"""The JSON and the self-contained HTML report of a lab run.

The HTML is rendered by Django's template engine (autoescaping on), so any
text a scenario planted is shown, never run. Invisible characters are made
visible first: a trainee should see the zero-width spaces and the Unicode tag
characters an attacker hid.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.text import reveal_hidden
from lab.guarantees import EXPLANATIONS
from lab.reading import segments, shown_in_full
from lab.runner import RunResult
from lab.schema import Scenario
from lab.scores import Informative, Score
from lab.words import refusal_sentence, violation_sentence


def report_data(
    scenarios: list[Scenario],
    results: list[RunResult],
    found: list[Score],
    meta: dict[str, Any],
    *,
    informative: list[Informative] | None = None,
    headline: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "generated_at": timezone.now().isoformat(timespec="seconds"),
        **meta,
        "scores": [s.as_dict() for s in found],
        # Empty when the naive harness did not play: it is what the fraction counts.
        "informative": [row.as_dict() for row in informative or []],
        "headline": headline,
        "scenarios": [
            {
                "id": s.id,
                "title": s.title,
                "kind": s.kind,
                "vector": s.vector,
                "technique": s.technique,
                "task": s.task,
                "guarantees": s.guarantees,
                "notes": s.notes,
                "runs": [r.as_dict() for r in results if r.scenario == s.id],
            }
            for s in scenarios
        ],
    }


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str), encoding="utf-8")


def write_html(path: Path, data: dict[str, Any]) -> None:
    with translation.override("en"):
        html = render_to_string("lab/report.html", html_context(data))
    path.write_text(html, encoding="utf-8")


def html_context(data: dict[str, Any]) -> dict[str, Any]:
    scenarios = []
    for scenario in data["scenarios"]:
        scenarios.append({**scenario, "runs": [run_view(run) for run in scenario["runs"]]})
    return {**data, "scenarios": scenarios, "informative": informative_view(data.get("informative") or [])}


def informative_view(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Informative-fraction rows (``Informative.as_dict``) with the share as shown."""
    return [
        {**row, "percent": "—" if row.get("fraction") is None else f"{100 * row['fraction']:.1f} %"}
        for row in rows
    ]


def run_view(run: dict[str, Any], marks: list[str] | None = None) -> dict[str, Any]:
    """A run prepared for a template: hidden characters shown, guarantees explained,
    each refusal and violation as a sentence, and every message in full, cut into
    pieces so that the planted text (``marks``, lab/reading.py) can be marked."""
    transcript = []
    for row in run["transcript"]:
        text = row.get("text") or ""
        full = shown_in_full(text) if row.get("role") == "tool" else reveal_hidden(text)
        pieces = segments(full, marks or [])
        transcript.append(
            {
                **row,
                "shown": reveal_hidden(text),
                "pieces": pieces,
                "has_planted": any(p.planted for p in pieces),
                "clicked": " ".join((row.get("ui_action") or {}).values()),
                "calls_shown": [
                    reveal_hidden(f"{c['tool']}({c['arguments']})") for c in row.get("tool_calls", [])
                ],
            }
        )
    held = [
        {
            **item,
            "explanation": EXPLANATIONS.get(item["guarantee"], ""),
            "sentence": refusal_sentence(item["code"], item.get("detail", "")),
        }
        for item in run["held_by"]
    ]
    violations = [{**v, "sentence": violation_sentence(v["kind"])} for v in run["violations"]]
    verdict = (
        "setup error"
        if run.get("setup_error")
        else "crashed"
        if run["error"]
        else (
            "breached"
            if run["attack_succeeded"]
            else "held"
            if run["kind"] == "attack"
            else "done"
            if run["utility"]
            else "not done"
        )
    )
    clicks = [
        {"summary": c["summary"], "outcome": c["result"].get("status") or c["result"].get("code", "")}
        for c in run["clicks"]
    ]
    return {
        **run,
        "transcript": transcript,
        "held_by": held,
        "violations": violations,
        "verdict": verdict,
        "clicks": clicks,
        "trace_shown": [
            {**row, "reason": reveal_hidden(row["reason"]), "raw_args": reveal_hidden(row["raw_args"])}
            for row in run["trace"]
        ],
    }
