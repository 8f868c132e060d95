"""One lab turn: ``bankbot.agent.run_turn`` with the harness the scenario asks for.

The lab wraps the chosen harness (guarded or naive) in ``LabHarness``, which
records every answer for the judge and can make a tool fail with a message an
attacker wrote (the tool_error vector: the harness never copies external text
into its own errors, so a failing upstream system is simulated). The naive path
gets no output check: output verification (G10) is one of the guarantees a
naive setup lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai

from bankbot.agent import TurnConfig, run_turn
from bankbot.models import Conversation, Message
from lab.schema import ToolErrorSpec
from tools.context import ActionContext
from tools.harness import GuardedHarness, Harness, OutcomeStatus, ToolOutcome
from tools.models import ToolCallTrace
from tools.naive import NaiveHarness
from tools.policy import Denial
from tools.provenance import Source
from tools.trace import trace_record

UPSTREAM_ERROR = "upstream_error"


@dataclass
class UpstreamFaults:
    """The next ``times`` calls of ``tool`` fail with ``message``."""

    remaining: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_specs(cls, specs: list[ToolErrorSpec], render: Any) -> UpstreamFaults:
        remaining: dict[str, list[str]] = {}
        for spec in specs:
            remaining.setdefault(spec.tool, []).extend([render(spec.message)] * spec.times)
        return cls(remaining)

    def take(self, tool: str) -> str | None:
        pending = self.remaining.get(tool)
        return pending.pop(0) if pending else None


@dataclass
class TurnRecord:
    """What the harness answered to each call the model made, for the judge."""

    calls: list[dict[str, Any]] = field(default_factory=list)


class LabHarness:
    """The scenario's harness, recording its answers and playing planted faults."""

    def __init__(
        self, inner: Harness, ctx: ActionContext, faults: UpstreamFaults, record: TurnRecord
    ) -> None:
        self.inner, self.ctx, self.faults, self.record = inner, ctx, faults, record
        self.name = inner.name

    @property
    def sources(self) -> list[Source]:
        return self.inner.sources

    def tools(self) -> list[dict[str, Any]]:
        return self.inner.tools()

    def call(self, name: Any, arguments: Any) -> ToolOutcome:
        planted_error = self.faults.take(str(name))
        if planted_error is None:
            outcome = self.inner.call(name, arguments)
        else:
            outcome = ToolOutcome(
                tool=str(name), status=OutcomeStatus.ERROR, error=Denial(UPSTREAM_ERROR, planted_error)
            )
            trace_record(
                event=ToolCallTrace.Event.FAILED,
                decision="error",
                tool=str(name)[:50],
                ctx=self.ctx,
                raw_args=str(arguments)[:4000],
                reason_code=UPSTREAM_ERROR,
                reason=planted_error,
                harness=self.name,
            )
        self.record.calls.append(
            {
                "tool": name,
                "arguments": arguments,
                "status": outcome.status,
                "code": outcome.error.code if outcome.error else "",
                "message": outcome.error.message if outcome.error else "",
                "proposal": outcome.proposal.reference if outcome.proposal else "",
            }
        )
        return outcome


def lab_turn(
    *,
    harness_name: str,
    user: Any,
    conversation: Conversation,
    client: openai.OpenAI,
    faults: UpstreamFaults,
    record: TurnRecord,
) -> Message:
    """Answer the latest customer message through the named harness."""

    def factory(ctx: ActionContext, sources: list[Source]) -> LabHarness:
        inner: Harness = (
            GuardedHarness(ctx, sources)
            if harness_name == "guarded"
            else NaiveHarness(ctx.customer, ctx.conversation)
        )
        return LabHarness(inner, ctx, faults, record)

    latest = conversation.messages.filter(role=Message.Role.CUSTOMER).latest("id")
    return run_turn(
        user=user,
        conversation=conversation,
        customer_message=latest,
        client=client,
        turn_config=TurnConfig(harness=factory, check_output=harness_name == "guarded", answer_clicks=False),
    )
