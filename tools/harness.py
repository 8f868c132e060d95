"""The guarded harness: every tool call the model makes goes through ``GuardedHarness.call``.

Unknown tool → denied. Arguments → validated by the tool's Pydantic model.
Scopes, business rules and the mandate → ``denial_reason``. A read runs at once
on a path that cannot write; a write becomes a proposal, and the model hears
only that it awaits the customer's confirmation. Every decision is traced.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from django.db import connection

from errors import DomainError
from tools.catalog import ReadTool, candidate_rows, openai_tools
from tools.context import ActionContext, InvalidAuthorizationContext
from tools.models import Proposal, ToolCallTrace
from tools.policy import Denial, denial_reason, parse_call
from tools.proposals import proposal_create, proposal_said
from tools.provenance import Source, external_sources, render_for_model
from tools.trace import trace_record

AWAITING = (
    "Shown to the customer as a card with Confirm and Decline. Nothing has happened yet "
    "and you cannot make it happen: only the customer's click can. Tell them what to check."
)


class ReadOnlyViolation(Exception):
    """A read tool tried to change the database."""


@contextmanager
def read_only() -> Iterator[None]:
    """Reads cannot write (G2): any statement but a SELECT is refused."""

    def guard(
        execute: Callable[[str, object, bool, dict[str, object]], object],
        sql: str,
        params: object,
        many: bool,
        context: dict[str, object],
    ) -> object:
        if not sql.lstrip().upper().startswith("SELECT"):
            raise ReadOnlyViolation(f"a read tool tried to run: {sql[:60]}")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(guard):
        yield


Event = ToolCallTrace.Event


class OutcomeStatus(StrEnum):
    """What became of a tool call, as the model and the chat read it."""

    OK = "ok"
    AWAITING_CONFIRMATION = "awaiting_confirmation"
    ERROR = "error"


@dataclass(frozen=True)
class ToolOutcome:
    tool: str
    status: OutcomeStatus
    data: Mapping[str, object] | None = None  # a read's result, or a denial's candidates
    error: Denial | None = None
    proposal: Proposal | None = None

    def message(self) -> dict[str, Any]:
        """The structured answer (G8), with External values still marked."""
        answer: dict[str, Any] = {"status": self.status, "tool": self.tool}
        if self.status == OutcomeStatus.OK:
            answer["data"] = self.data
        elif self.status == OutcomeStatus.AWAITING_CONFIRMATION and self.proposal is not None:
            # The summary in the customer's language: a model repeats it to them.
            answer.update(
                proposal=self.proposal.reference, summary=proposal_said(self.proposal), message=AWAITING
            )
        elif self.error is not None:
            answer["error"] = self.error.as_dict()
            if self.data and self.data.get("candidates"):
                answer["candidates"] = self.data["candidates"]
            if self.error.asked_for:
                # The one call (or calls) the customer asked for, exactly: a model
                # may make it instead of the one denied.
                answer["asked_for"] = [dict(call) for call in self.error.asked_for]
        return answer

    def for_model(self) -> str:
        return render_for_model(self.message())


class Harness(Protocol):
    """What a turn needs of a harness: the tools to offer and one call at a time.
    GuardedHarness (the chat's), NaiveHarness and the lab's recording wrapper are one."""

    name: str

    @property
    def sources(self) -> list[Source]:
        """External text already in the model's context (the naive harness keeps none)."""
        ...

    def tools(self) -> list[dict[str, Any]]: ...

    def call(self, name: object, raw_arguments: object) -> ToolOutcome:
        """One call as the model made it: its name and its arguments (JSON text, or
        already read), each checked before use."""
        ...


@dataclass
class GuardedHarness:
    ctx: ActionContext
    # External text already in the model's context this conversation; a
    # proposal records them so the confirm card can warn the customer. Those
    # past ``read_from`` this harness read itself: in this turn.
    sources: list[Source] = field(default_factory=list)
    read_from: int = field(init=False, default=0)
    name = "guarded"

    def __post_init__(self) -> None:
        if not isinstance(self.ctx, ActionContext):
            raise InvalidAuthorizationContext()
        self.read_from = len(self.sources)

    def tools(self) -> list[dict[str, Any]]:
        return openai_tools()

    def call(self, name: object, raw_arguments: object) -> ToolOutcome:
        started = time.perf_counter()
        raw_text = raw_arguments if isinstance(raw_arguments, str) else json.dumps(raw_arguments, default=str)
        tool = str(name)[:50]
        try:
            arguments = json.loads(raw_arguments) if isinstance(raw_arguments, str) else (raw_arguments)
        except json.JSONDecodeError as error:
            return self._deny(
                tool,
                raw_text,
                Denial("invalid_json", f"The arguments for {tool} are not valid JSON ({error.msg})."),
                started,
            )
        if arguments is None:
            arguments = {}
        parsed = parse_call(name, arguments)
        if isinstance(parsed, Denial):
            return self._deny(tool, raw_text, parsed, started)
        spec, args = parsed
        validated = args.model_dump(mode="json")
        denial = denial_reason(self.ctx, spec, args)
        if denial is not None:
            candidates = candidate_rows(self.ctx.customer, spec.name, denial.candidates, fit=denial.fit)
            self.sources += external_sources(tool, candidates)
            return self._deny(tool, raw_text, denial, started, validated, candidates)
        if isinstance(spec, ReadTool):
            try:
                with read_only():
                    data = spec.run(self.ctx, args)
            except DomainError as error:
                return self._deny(
                    tool,
                    raw_text,
                    Denial(error.code, error.message, english=error.english),
                    started,
                    validated,
                )
            self.sources += external_sources(tool, data)
            trace_record(
                event=Event.CALLED,
                decision="ok",
                tool=tool,
                ctx=self.ctx,
                raw_args=raw_text,
                validated_args=validated,
                result=spec.traced(data),
                latency_ms=_ms(started),
            )
            return ToolOutcome(tool=tool, status=OutcomeStatus.OK, data=data)
        proposal = proposal_create(self.ctx, spec, args, self.sources, read_from=self.read_from)
        grant = spec.grant(self.ctx, args)
        if grant is not None:
            self.ctx.spent.add(grant)
        trace_record(
            event=Event.PROPOSED,
            decision="allow",
            tool=tool,
            ctx=self.ctx,
            proposal=proposal,
            raw_args=raw_text,
            validated_args=validated,
            result={
                "proposal": proposal.reference,
                "summary": proposal.summary,
                "external_sources": proposal.external_sources,
            },
            latency_ms=_ms(started),
        )
        return ToolOutcome(tool=tool, status=OutcomeStatus.AWAITING_CONFIRMATION, proposal=proposal)

    def _deny(
        self,
        tool: str,
        raw_text: str,
        denial: Denial,
        started: float,
        validated: dict[str, object] | None = None,
        candidates: dict[str, object] | None = None,
    ) -> ToolOutcome:
        trace_record(
            event=Event.DENIED,
            decision="deny",
            tool=tool,
            ctx=self.ctx,
            raw_args=raw_text[:4000],
            validated_args=validated,
            reason_code=denial.code,
            reason=denial.english or denial.message,
            latency_ms=_ms(started),
        )
        return ToolOutcome(tool=tool, status=OutcomeStatus.ERROR, error=denial, data=candidates or None)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
