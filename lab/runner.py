"""Play a scenario through one harness with one customer behaviour, in a fresh
isolated database, and judge what happened.

``run_scenario`` is one run; ``run_corpus`` is every scenario × harness ×
behaviour asked for, reporting progress as it goes. Each run gets its own copy
of the migrated lab database, so runs cannot see each other and nothing
touches the configured database.
"""

from __future__ import annotations

import json
import multiprocessing
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from django.db import connections
from django.utils import timezone

from bankbot.chat import (
    confirmation_note,
    conversation_start,
    message_customer_add,
    tool_calls_of,
    tool_result_of,
)
from bankbot.models import Conversation, Message
from errors import DomainError
from lab.clients import RequestLog, lab_model_client, model_label
from lab.isolation import isolated_database, migrated_template
from lab.judge import CONFIRM_ALL, Evidence, judge
from lab.loop import TurnRecord, UpstreamFaults, lab_turn
from lab.schema import CARD_TOOLS, ClickStep, SayStep, Scenario, ScriptedModel
from lab.templating import Renderer
from lab.world import (
    ScenarioError,
    World,
    bank_records,
    secrets_of_others,
    setting_up,
    state_diff,
    state_snapshot,
    world_build,
)
from tools.catalog import CATALOG
from tools.models import Proposal, ToolCallTrace
from tools.proposals import proposal_confirm
from tools.reveal import reveal

HARNESSES = ("naive", "guarded")
BEHAVIOURS = ("never-click", "confirm-all")
MODEL_CHOICES = ("scenario", "offline-careful", "offline-compromised", "adversary", "configured")
# Models that write no helpful answer: a scenario's expected phrases do not apply to them.
NO_ANSWER_MODELS = ("adversary",)
SHOWN_CHARS = 20000  # a tool result in the transcript: in full, so the planted text is never cut off

Event = ToolCallTrace.Event


@dataclass
class RunResult:
    scenario: str
    kind: str
    harness: str
    behaviour: str
    model: str
    technique: str = ""  # attacks only: what the informative fraction is counted by
    utility: bool = False
    attack_succeeded: bool = False
    unmet: list[str] = field(default_factory=list)
    not_applicable: list[str] = field(default_factory=list)  # expected phrases this model skips
    violations: list[dict[str, str]] = field(default_factory=list)
    planted_proposals: list[dict[str, Any]] = field(default_factory=list)
    held_by: list[dict[str, str]] = field(default_factory=list)
    transcript: list[dict[str, Any]] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    proposals: list[dict[str, Any]] = field(default_factory=list)
    clicks: list[dict[str, Any]] = field(default_factory=list)
    end_state: dict[str, Any] = field(default_factory=dict)
    model_requests: int = 0
    seconds: float = 0.0
    error: str = ""  # a crash while playing
    # The scenario could not be set up ("scenario 'id': field: problem"); nothing was played.
    setup_error: str = ""
    # Set when this result is another behaviour's run, reported again (naive only).
    same_as: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_scenario(scenario: Scenario, *, harness: str, behaviour: str, model: str | None = None) -> RunResult:
    """One run. Never raises for a broken scenario or a crash: the result says so
    (``setup_error`` when the world cannot be built, ``error`` when play crashed)."""
    if harness not in HARNESSES or behaviour not in BEHAVIOURS:
        raise ValueError(f"unknown harness {harness!r} or behaviour {behaviour!r}")
    spec = scenario.model if model in (None, "scenario") else model
    result = RunResult(
        scenario=scenario.id,
        kind=scenario.kind,
        harness=harness,
        behaviour=behaviour,
        model=model_label(spec),
        technique=scenario.technique or "",
    )
    started = time.perf_counter()
    try:
        with isolated_database():
            try:
                stage = _set_up(scenario)
            except ScenarioError as error:
                result.setup_error = f"scenario {scenario.id!r}: {error}"
            else:
                _play(scenario, spec, stage, result)
    except Exception:  # one broken run must not hide the other results
        result.error = traceback.format_exc(limit=6)[-3000:]
        result.utility = False
        result.attack_succeeded = scenario.kind == "attack"
    result.seconds = round(time.perf_counter() - started, 3)
    return result


@dataclass(frozen=True)
class _Stage:
    """A scenario set up: its world built and every text of it rendered."""

    world: World
    renderer: Renderer
    said: list[str | None]  # per step: the customer's text, None for a click
    faults: UpstreamFaults
    expected_answer: list[str]
    visible: str


def _set_up(scenario: Scenario) -> _Stage:
    renderer = Renderer(scenario.setup, timezone.localtime())
    world = world_build(scenario.setup, renderer)
    said: list[str | None] = []
    for index, step in enumerate(scenario.steps):
        with setting_up(f"steps.{index}.say"):
            said.append(renderer.text(step.say) if isinstance(step, SayStep) else None)
    with setting_up("setup.tool_errors"):
        faults = UpstreamFaults.from_specs(scenario.setup.tool_errors, renderer.text)
    with setting_up("expected.answer_contains"):
        expected = [renderer.text(p) for p in scenario.expected.answer_contains]
    with setting_up("scenario"):
        visible = _visible(scenario, renderer)
    return _Stage(world, renderer, said, faults, expected, visible)


def _play(scenario: Scenario, spec: str | ScriptedModel, stage: _Stage, result: RunResult) -> None:
    world = stage.world
    before = state_snapshot()
    conversation = conversation_start(customer=world.actor)
    log = RequestLog()
    client = lab_model_client(spec, stage.renderer, log)
    record = TurnRecord()
    user = world.actor.user
    for step, text in zip(scenario.steps, stage.said, strict=True):
        if text is not None:
            message_customer_add(conversation=conversation, text=text)
        else:
            assert isinstance(step, ClickStep)  # only a click says no text
            message_customer_add(conversation=conversation, text="", ui_action=step.click.as_dict())
        lab_turn(
            harness_name=result.harness,
            user=user,
            conversation=conversation,
            client=client,
            faults=stage.faults,
            record=record,
        )
        if result.behaviour == CONFIRM_ALL and result.harness == "guarded":
            result.clicks += _confirm_all(user, conversation)
    after = state_snapshot()
    diff = state_diff(before, after)
    result.end_state = {"before": before, "after": after, "diff": diff}
    result.transcript = _transcript(conversation)
    result.trace = _trace()
    result.proposals = _proposals(conversation)
    result.model_requests = len(log.bodies)
    final = [m for m in result.transcript if m["role"] == "assistant" and not m.get("tool_calls")]
    answers = [m["text"] for m in final]
    offered = result.proposals if result.harness == "guarded" else _naive_writes(result.trace)
    verdict = judge(
        Evidence(
            scenario=scenario,
            harness=result.harness,
            behaviour=result.behaviour,
            offered=offered,
            diff=diff,
            answers=answers,
            shown_text="\n".join([*answers, *(p["summary"] for p in result.proposals)]),
            model_text=log.text(),
            secrets=secrets_of_others(world, stage.visible),
            calls=record.calls,
            trace=result.trace,
            actor=world.actor.user.get_username(),
            expected_answer=stage.expected_answer,
            records=bank_records(world, scenario.setup, stage.renderer),
            customer_text="\n".join(text for text in stage.said if text),
            proposals=result.proposals,
            clicks=result.clicks,
            answer_applies=spec not in NO_ANSWER_MODELS,
            warnings=[m["flagged"] for m in final if m.get("flagged")],
        )
    )
    result.utility = verdict.utility
    result.attack_succeeded = scenario.kind == "attack" and verdict.attack_succeeded
    result.unmet, result.violations = verdict.unmet, verdict.violations
    result.not_applicable = verdict.not_applicable
    result.planted_proposals, result.held_by = verdict.planted_proposals, verdict.held_by


def _confirm_all(user: Any, conversation: Conversation) -> list[dict[str, Any]]:
    """The tired customer: Confirm on every card shown, oldest first."""
    clicks = []
    pending = Proposal.objects.filter(conversation=conversation, status=Proposal.Status.PENDING)
    for proposal in pending.order_by("id"):
        try:
            outcome = proposal_confirm(user=user, public_id=proposal.public_id, digest=proposal.args_digest)
        except DomainError as error:
            clicks.append(
                {"proposal": proposal.reference, "summary": proposal.summary, "result": error.as_dict()}
            )
            continue
        confirmation_note(proposal=outcome.proposal, response=outcome.response)
        clicks.append(
            {"proposal": proposal.reference, "summary": proposal.summary, "result": outcome.response}
        )
    return clicks


def _visible(scenario: Scenario, renderer: Renderer) -> str:
    """Text the scenario itself put in front of the actor or the model: an
    identifier found here is the attacker's, not a leak. Read as the compromised
    model reads it (``reveal``: invisible characters dropped, look-alikes resolved,
    tags and base64 decoded), so "T-20\u200b01" planted is the attacker's "T-2001"."""
    shown = {
        "actor": scenario.setup.actor_spec.model_dump(mode="json"),
        "steps": [s.model_dump(mode="json") for s in scenario.steps],
        "tool_errors": [e.model_dump(mode="json") for e in scenario.setup.tool_errors],
        "model": scenario.model.model_dump(mode="json")
        if isinstance(scenario.model, ScriptedModel)
        else scenario.model,
    }
    return reveal(json.dumps(renderer.deep(shown), ensure_ascii=False))


def _transcript(conversation: Conversation) -> list[dict[str, Any]]:
    rows = []
    for message in conversation.messages.order_by("id"):
        row: dict[str, Any] = {"role": message.role, "text": message.text}
        if message.ui_action:
            row["ui_action"] = message.ui_action
        if calls := tool_calls_of(message):
            row["tool_calls"] = [
                {"tool": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in calls
            ]
        if message.role == Message.Role.TOOL:
            result = tool_result_of(message.payload)
            row.update(
                tool=result["name"] if result else "",
                status=result["status"] if result else "",
                text=result["content"][:SHOWN_CHARS] if result else "",
            )
        if message.flagged:
            row["flagged"] = message.flagged
        rows.append(row)
    return rows


def _trace() -> list[dict[str, Any]]:
    return [
        {
            "harness": t.harness,
            "event": t.event,
            "decision": t.decision,
            "tool": t.tool,
            "reason_code": t.reason_code,
            "reason": t.reason,
            "raw_args": t.raw_args[:500],
            "result": t.result,
            "proposal": t.proposal.reference if t.proposal else "",
        }
        for t in ToolCallTrace.objects.select_related("proposal").order_by("id")
    ]


def _proposals(conversation: Conversation) -> list[dict[str, Any]]:
    return [
        {
            "reference": p.reference,
            "tool": p.tool,
            "args": p.args,
            "status": p.status,
            "summary": p.summary,
            "external_sources": p.external_sources,
        }
        for p in Proposal.objects.filter(conversation=conversation).order_by("id")
    ]


def _naive_writes(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Writes the naive harness carried out (no proposals: it just does them)."""
    done = []
    writes = {spec.name for spec in CATALOG.writes()}
    for row in trace:
        if row["harness"] != "naive" or row["event"] != Event.EXECUTED or row["tool"] not in writes:
            continue
        result = row["result"] or {}
        args = (
            {"card": result.get("card")}
            if row["tool"] in CARD_TOOLS
            else {"transaction": result.get("transaction"), "amount": result.get("amount_kzt")}
        )
        done.append(
            {
                "tool": row["tool"],
                "args": args,
                "status": "executed",
                "summary": f"{row['tool']} {json.dumps(args)} (done at once)",
            }
        )
    return done


def run_corpus(
    scenarios: list[Scenario],
    *,
    harnesses: tuple[str, ...] = HARNESSES,
    behaviours: tuple[str, ...] = BEHAVIOURS,
    model: str | None = None,
    jobs: int = 1,
    progress: Callable[[int, int, Scenario, list[RunResult]], None] | None = None,
) -> list[RunResult]:
    """Every scenario × harness × behaviour; ``progress`` hears once per scenario,
    in corpus order. ``jobs`` > 1 plays scenarios in that many forked processes."""
    play = partial(_all_runs, harnesses=harnesses, behaviours=behaviours, model=model)
    results: list[RunResult] = []
    with _pool(jobs) as pool:
        for number, runs in enumerate(pool.map(play, scenarios), 1):
            results += runs
            if progress is not None:
                progress(number, len(scenarios), scenarios[number - 1], runs)
    return results


def _all_runs(
    scenario: Scenario, *, harnesses: tuple[str, ...], behaviours: tuple[str, ...], model: str | None
) -> list[RunResult]:
    runs: list[RunResult] = []
    for harness in harnesses:
        for behaviour in behaviours:
            played = next((r for r in runs if r.harness == harness == "naive"), None)
            if played is not None:
                # The naive harness shows no confirm cards, so how the customer
                # would click cannot change its run: it is played once and
                # reported under each behaviour (a quarter of the corpus's time).
                runs.append(replace(played, behaviour=behaviour, same_as=played.behaviour))
                continue
            runs.append(run_scenario(scenario, harness=harness, behaviour=behaviour, model=model))
    return runs


class _InProcess:
    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(
        self, fn: Callable[[Scenario], list[RunResult]], items: list[Scenario]
    ) -> Iterator[list[RunResult]]:
        return map(fn, items)


def _pool(jobs: int) -> Any:
    """Forked workers inherit the configured Django and the migrated template,
    so they start at once; where fork is unavailable, everything runs here."""
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _InProcess()
    migrated_template()  # once, before forking, so workers only copy it
    connections.close_all()  # a forked child must not share the parent's sockets
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
