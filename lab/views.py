"""The trainee page: the scenario list, and one scenario run through both harnesses.

For bank staff (``is_staff``): trainees are employees learning how prompt
injection works, and a run costs a few hundred milliseconds of CPU. Runs use
the lab's isolated database (lab/isolation.py), never the bank's data,
and only in-process models: a scenario that asks for the configured (possibly
remote, paid) model runs from the command line only. A trainee may swap in the
adversary (lab/adversary.py) to see one scenario's worst case; the
corpus-wide headline is too slow for a request, so the index shows the stored
one (lab/headline.py).
"""

from __future__ import annotations

import functools
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_http_methods

from accounts.text import reveal_hidden
from lab.access import lab_view
from lab.guarantees import EXPLANATIONS
from lab.headline import ADVERSARY, HEADLINE_PATH, REFRESH, headline_read
from lab.loader import load_builtin
from lab.report import informative_view, run_view
from lab.runner import BEHAVIOURS, HARNESSES, run_scenario
from lab.schema import SayStep, Scenario
from lab.templating import Renderer

# What a trainee may run a scenario with: its own model, or the worst case.
MODELS = ("scenario", ADVERSARY)


@functools.cache
def corpus() -> dict[str, Scenario]:
    return {scenario.id: scenario for scenario in load_builtin()}


@require_GET
@lab_view
def lab_index(request: HttpRequest) -> HttpResponse:
    scenarios = list(corpus().values())
    return render(
        request,
        "lab/index.html",
        {
            "nav": "lab",
            "attacks": [s for s in scenarios if s.kind == "attack"],
            "benign": [s for s in scenarios if s.kind == "benign"],
            "headline": _headline(),
            "refresh": REFRESH,
        },
    )


def _headline() -> dict[str, Any] | None:
    stored = headline_read(HEADLINE_PATH)
    if stored is None:
        return None
    rows = informative_view(stored.get("informative") or [])
    return {
        **stored,
        "measured": parse_datetime(str(stored.get("generated_at", ""))),
        "informative": rows[:-1],
        "total": rows[-1] if rows else None,
        "low": [row["technique"] for row in rows[:-1] if row.get("low")],
    }


@require_http_methods(["GET", "POST"])
@lab_view
def lab_scenario(request: HttpRequest, scenario_id: str) -> HttpResponse:
    scenario = corpus().get(scenario_id)
    if scenario is None:
        raise Http404("no such scenario")
    behaviour = request.POST.get("customer", BEHAVIOURS[-1])
    model = request.POST.get("model", MODELS[0])
    renderer = Renderer(scenario.setup, timezone.localtime())
    context: dict[str, Any] = {
        "nav": "lab",
        "scenario": scenario,
        "behaviours": BEHAVIOURS,
        "behaviour": behaviour,
        "models": MODELS,
        "model": model,
        "setup_rows": _setup_rows(scenario, renderer),
        "steps": _steps(scenario, renderer),
        "declared": [{"guarantee": g, "explanation": EXPLANATIONS[g]} for g in scenario.guarantees],
        "runs": [],
        "runnable": scenario.model != "configured",
    }
    if request.method == "POST":
        if behaviour not in BEHAVIOURS or model not in MODELS:
            error = "behaviour" if behaviour not in BEHAVIOURS else "model"
            return render(request, "lab/scenario.html", {**context, "error": error}, status=400)
        if model == MODELS[0] and not context["runnable"]:
            return render(request, "lab/scenario.html", {**context, "error": "configured"}, status=400)
        context["runs"] = [
            run_view(run_scenario(scenario, harness=h, behaviour=behaviour, model=model).as_dict())
            for h in HARNESSES
        ]
    return render(request, "lab/scenario.html", context)


def _setup_rows(scenario: Scenario, renderer: Renderer) -> list[dict[str, str]]:
    """Every transaction as it will be stored, hidden characters made visible: the
    planted text is shown on purpose (templates still escape it)."""
    rows = []
    for customer in scenario.setup.customers:
        for txn in customer.transactions:
            rows.append(
                {
                    "owner": customer.username,
                    "reference": txn.reference,
                    "days_ago": str(txn.days_ago),
                    "amount": f"{txn.amount:.2f}",
                    "merchant": reveal_hidden(renderer.text(txn.merchant)),
                    "description": reveal_hidden(renderer.text(txn.description)),
                }
            )
    return rows


def _steps(scenario: Scenario, renderer: Renderer) -> list[str]:
    return [
        reveal_hidden(renderer.text(step.say))
        if isinstance(step, SayStep)
        else f"[{step.click.operation} {step.click.transaction or step.click.card}]"
        for step in scenario.steps
    ]
