"""The lab's turn loop — a deliberately small copy of ``bankbot.agent.run_turn``.

TEMPORARY. ``run_turn`` always builds a ``GuardedHarness``; the lab also needs
the naive one, and a way to make a tool fail with an attacker's message (the
tool_error vector). Until ``run_turn`` takes a harness factory (see
docs/injection-lab.md, "Changes asked of other parts"), this module repeats its
steps with the same public pieces — ``SYSTEM_PROMPT``, ``history_for_model``,
``MAX_TOOL_STEPS``, the chat services, the mandate, ``check_answer`` — and
``tests/lab/test_loop_matches_agent.py`` fails if the guarded path here stops
sending the model exactly what ``run_turn`` sends.

The naive path gets no output check: output verification (G10) is one of the
guarantees a naive setup lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai
from django.utils import timezone
from openai.lib.streaming.chat import ChatCompletionStreamState

from bankbot.agent import MAX_TOOL_STEPS, SYSTEM_PROMPT, history_for_model
from bankbot.chat import customer_inputs, message_add
from bankbot.models import Conversation, Message
from bankbot.output_checks import check_answer
from tools.context import action_context_for
from tools.harness import GuardedHarness, ToolOutcome
from tools.lab.schema import ToolErrorSpec
from tools.mandate import mandate_build
from tools.naive import NaiveHarness
from tools.policy import Denial
from tools.provenance import EXTERNAL_NOTE, Source
from tools.trace import trace_record

UPSTREAM_ERROR = "upstream_error"


@dataclass
class UpstreamFaults:
    """The lab's stand-in for a failing upstream system whose error text an attacker
    wrote: the next ``times`` calls of ``tool`` fail with ``message``. The harness
    itself never copies external text into an error, so this is simulated."""

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


def lab_turn(*, harness_name: str, user: Any, conversation: Conversation,
             client: openai.OpenAI, model: str, faults: UpstreamFaults,
             record: TurnRecord) -> Message:
    """Answer the latest customer message through the named harness."""
    ctx = None
    if harness_name == "guarded":
        ctx = action_context_for(user, conversation,
                                 mandate=mandate_build(customer_inputs(conversation=conversation)))
        harness: Any = GuardedHarness(ctx, sources=_sources_seen(conversation))
    else:
        harness = NaiveHarness(conversation.customer, conversation)
    messages = [_system_message(), *history_for_model(conversation)]
    try:
        for _ in range(MAX_TOOL_STEPS):
            reply = _complete(client, model, messages, harness.tools())
            tool_calls = reply.tool_calls or []
            if not tool_calls:
                return _finish(conversation, reply.content or "", ctx, harness_name)
            messages.append(_store_tool_calls(conversation, reply.content or "", tool_calls))
            for call in tool_calls:
                messages.append(_run_tool(conversation, harness, ctx, call, faults, record))
        return _fail(conversation, ctx, harness_name, "step_cap",
                     f"The assistant could not finish in {MAX_TOOL_STEPS} steps.")
    except (openai.APIError, ValueError) as error:
        return _fail(conversation, ctx, harness_name, "model_error",
                     f"The model failed: {type(error).__name__}.")


def _system_message() -> dict[str, str]:
    return {"role": "system", "content": SYSTEM_PROMPT.format(
        today=timezone.localdate().isoformat(), external_note=EXTERNAL_NOTE)}


def _sources_seen(conversation: Conversation) -> list[Source]:
    sources: list[Source] = []
    for payload in conversation.messages.filter(role=Message.Role.TOOL).values_list(
            "payload", flat=True):
        sources += [Source(**item) for item in (payload or {}).get("sources", [])]
    return sources


def _complete(client: openai.OpenAI, model: str, messages: list[dict[str, Any]],
              tools: list[dict[str, Any]]) -> Any:
    state = ChatCompletionStreamState()
    for chunk in client.chat.completions.create(model=model, messages=messages, tools=tools,
                                                stream=True):
        state.handle_chunk(chunk)
    completion = state.get_final_completion()
    if not completion.choices:
        raise ValueError("no choices")
    return completion.choices[0].message


def _store_tool_calls(conversation: Conversation, content: str, tool_calls: list[Any]) -> dict:
    calls = [{"id": c.id, "type": "function",
              "function": {"name": c.function.name, "arguments": c.function.arguments}}
             for c in tool_calls]
    message_add(conversation=conversation, role=Message.Role.ASSISTANT, text=content,
                payload={"tool_calls": calls})
    return {"role": "assistant", "content": content or None, "tool_calls": calls}


def _run_tool(conversation: Conversation, harness: Any, ctx: Any, call: Any,
              faults: UpstreamFaults, record: TurnRecord) -> dict[str, Any]:
    name, arguments = call.function.name, call.function.arguments
    sources = getattr(harness, "sources", [])
    before = len(sources)
    planted_error = faults.take(name)
    if planted_error is not None:
        outcome = ToolOutcome(tool=name, status="error",
                              error=Denial(UPSTREAM_ERROR, planted_error))
        trace_record(event="failed", decision="error", tool=name, ctx=ctx,
                     customer=conversation.customer, conversation=conversation,
                     raw_args=str(arguments)[:4000], reason_code=UPSTREAM_ERROR,
                     reason=planted_error, harness=harness.name)
    else:
        outcome = harness.call(name, arguments)
    content = outcome.for_model()
    message_add(conversation=conversation, role=Message.Role.TOOL, text="",
                payload={"tool_call_id": call.id, "name": outcome.tool, "status": outcome.status,
                         "content": content,
                         "sources": [s.as_dict() for s in getattr(harness, "sources", [])[before:]]})
    record.calls.append({
        "tool": name, "arguments": arguments, "status": outcome.status,
        "code": outcome.error.code if outcome.error else "",
        "message": outcome.error.message if outcome.error else "",
        "proposal": outcome.proposal.reference if outcome.proposal else "",
    })
    return {"role": "tool", "tool_call_id": call.id, "content": content}


def _finish(conversation: Conversation, text: str, ctx: Any, harness_name: str) -> Message:
    if harness_name != "guarded":
        return message_add(conversation=conversation, role=Message.Role.ASSISTANT, text=text)
    known = [payload["content"] for payload in conversation.messages.filter(
        role=Message.Role.TOOL).values_list("payload", flat=True) if payload]
    known += list(conversation.messages.filter(
        role__in=[Message.Role.CUSTOMER, Message.Role.SYSTEM]).values_list("text", flat=True))
    checked = check_answer(text, known_text=known)
    message = message_add(conversation=conversation, role=Message.Role.ASSISTANT,
                          text=checked.text, flagged=" ".join(checked.problems))
    if checked.flagged:
        trace_record(event="flagged", decision="flag", ctx=ctx, reason_code="output_check",
                     reason=" ".join(checked.problems), result={"original": text[:2000]})
    return message


def _fail(conversation: Conversation, ctx: Any, harness_name: str, code: str,
          text: str) -> Message:
    trace_record(event="model_error", decision="error", ctx=ctx, customer=conversation.customer,
                 conversation=conversation, reason_code=code, reason=text, harness=harness_name)
    return message_add(conversation=conversation, role=Message.Role.ASSISTANT, text=text,
                       payload={"error": code, "retryable": True})
