"""The trainee pages: a first page that teaches (what an injection is, the defences,
a start-here path) with the searchable scenario list, one scenario run through both
harnesses, and the scores on a page of their own.

For bank staff (``is_staff``): trainees are employees learning how prompt
injection works, and a run costs a few hundred milliseconds of CPU. Runs use
the lab's isolated database (lab/isolation.py), never the bank's data,
and only in-process models: a scenario that asks for the configured (possibly
remote, paid) model runs from the command line only. A trainee may swap in the
adversary (lab/adversary.py) to see one scenario's worst case; the
corpus-wide figures are too slow for a request, so the pages show stored ones:
the adversary's headline (lab/headline.py) and each scenario's own outcome
(lab/catalogue.py), which the filters and the scores page read.
"""

from __future__ import annotations

import functools
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_http_methods

from accounts.text import reveal_hidden
from lab.access import lab_view
from lab.catalogue import CATALOGUE_PATH, catalogue_read, runnable
from lab.catalogue import REFRESH as CATALOGUE_REFRESH
from lab.finding import Filters, matching
from lab.guarantees import EXPLANATIONS
from lab.headline import ADVERSARY, HEADLINE_PATH, REFRESH, headline_read
from lab.loader import load_builtin
from lab.reading import needles, planted_texts
from lab.report import informative_view, run_view
from lab.runner import BEHAVIOURS, HARNESSES, run_scenario
from lab.schema import TECHNIQUES, VECTORS, SayStep, Scenario
from lab.scoreboard import scoreboard
from lab.teaching import DEFENCES, START_HERE
from lab.templating import Renderer
from lab.words import GOAL_WORDS, OUTCOME_WORDS, technique_words, vector_words

# What a trainee may run a scenario with: its own model, or the worst case.
MODELS = ("scenario", ADVERSARY)
PER_PAGE = 25  # scenarios a page of the list: the whole corpus on one page was 14,600 px


@functools.cache
def corpus() -> dict[str, Scenario]:
    return {scenario.id: scenario for scenario in load_builtin()}


@require_GET
@lab_view
def lab_index(request: HttpRequest) -> HttpResponse:
    scenarios = list(corpus().values())
    measured = catalogue_read(CATALOGUE_PATH)["scenarios"]
    filters = Filters.from_query(request.GET)
    found = matching([s for s in scenarios if s.kind == "attack"], filters, measured)
    page = Paginator(found, PER_PAGE).get_page(request.GET.get("page"))
    kept = request.GET.copy()
    kept.pop("page", None)
    return render(
        request,
        "lab/index.html",
        {
            "nav": "lab",
            "starts": _starts(),
            "defences": DEFENCES,
            "filters": filters,
            "choices": {
                "technique": [(t, technique_words(t)) for t in TECHNIQUES],
                "vector": [(v, vector_words(v)) for v in VECTORS],
                "goal": list(GOAL_WORDS.items()),
                "outcome": list(OUTCOME_WORDS.items()),
            },
            "found": len(found),
            "page": page,
            "rows": [_row(s, measured.get(s.id)) for s in page.object_list],
            "query": kept.urlencode(),
            "benign": [s for s in scenarios if s.kind == "benign"],
            "attacks": sum(1 for s in scenarios if s.kind == "attack"),
        },
    )


def _starts() -> list[dict[str, Any]]:
    return [
        {
            "number": number,
            "scenario": corpus()[start.scenario],
            "technique": technique_words(corpus()[start.scenario].technique),
            "vector": vector_words(corpus()[start.scenario].vector),
            "defence": DEFENCES[start.defence],
            "why": start.why,
        }
        for number, start in enumerate(START_HERE, 1)
    ]


def _row(scenario: Scenario, measured: dict[str, Any] | None) -> dict[str, Any]:
    row = measured or {}
    return {
        "scenario": scenario,
        "technique": technique_words(scenario.technique),
        "vector": vector_words(scenario.vector),
        "goals": [GOAL_WORDS[g] for g in row.get("goals", []) if g in GOAL_WORDS],
        "outcome": row.get("outcome", ""),
        "outcome_words": OUTCOME_WORDS.get(row.get("outcome", ""), ""),
    }


@require_GET
@lab_view
def lab_scores(request: HttpRequest) -> HttpResponse:
    """The figures for teachers, each with the sentence that says what it counts."""
    measured = catalogue_read(CATALOGUE_PATH)
    return render(
        request,
        "lab/scores.html",
        {
            "nav": "lab",
            "headline": _headline(),
            "refresh": REFRESH,
            "board": scoreboard(measured["scenarios"]),
            "measured_at": parse_datetime(str(measured.get("generated_at", ""))),
            "catalogue_refresh": CATALOGUE_REFRESH,
        },
    )


def _headline() -> dict[str, Any] | None:
    stored = headline_read(HEADLINE_PATH)
    if stored is None:
        return None
    rows = [
        {**row, "technique_words": technique_words(row["technique"])}
        for row in informative_view(stored.get("informative") or [])
    ]
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
    planted = planted_texts(scenario, corpus().values())
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
        "runnable": runnable(scenario),
        "technique": technique_words(scenario.technique),
        "vector": vector_words(scenario.vector),
        "planted": [reveal_hidden(text) for text in planted],
        "start": _start_of(scenario),
    }
    if request.method == "POST":
        if behaviour not in BEHAVIOURS or model not in MODELS:
            error = "behaviour" if behaviour not in BEHAVIOURS else "model"
            return render(request, "lab/scenario.html", {**context, "error": error}, status=400)
        if model == MODELS[0] and not context["runnable"]:
            return render(request, "lab/scenario.html", {**context, "error": "configured"}, status=400)
        context["runs"] = [
            run_view(
                run_scenario(scenario, harness=h, behaviour=behaviour, model=model).as_dict(),
                needles(planted),
            )
            for h in HARNESSES
        ]
    return render(request, "lab/scenario.html", context)


def _start_of(scenario: Scenario) -> dict[str, Any] | None:
    """Where this scenario stands on the start-here path, and the next one."""
    ids = [start.scenario for start in START_HERE]
    if scenario.id not in ids:
        return None
    at = ids.index(scenario.id)
    start = START_HERE[at]
    following = corpus()[ids[at + 1]] if at + 1 < len(ids) else None
    return {
        "number": at + 1,
        "of": len(ids),
        "defence": DEFENCES[start.defence],
        "why": start.why,
        "next": following,
    }


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
