"""The agent: one customer turn, from the stored message to the checked answer.

The model is reached only through the client from ``llm.client``; its
tool calls only through the guarded harness. The customer's message is stored
before this runs (``bankbot.chat.message_customer_add``), so a model failure
loses nothing: the customer sees a clear message and can retry (G11).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import openai
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _
from openai.types.chat import (
    ChatCompletionAssistantMessageParam,
    ChatCompletionMessage,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageParam,
    ChatCompletionMessageToolCallParam,
    ChatCompletionMessageToolCallUnion,
    ChatCompletionSystemMessageParam,
    ChatCompletionToolMessageParam,
)

from accounts.selectors import cards_for_customer
from bankbot import handover, person_request
from bankbot.card_push import push_cards
from bankbot.chat import (
    PERSON_OFFER,
    FailurePayload,
    PersonOfferPayload,
    ToolCallsPayload,
    ToolResultPayload,
    is_for_the_model,
    message_add,
    tool_calls_of,
    tool_result_of,
)
from bankbot.mandate_model import mandate_with_model
from bankbot.models import Conversation, Message
from bankbot.output_checks import Known, StreamGate, check_answer
from bankbot.selection import selected_call, selection_answer
from bankbot.turns import StopSignal
from errors import DomainError
from llm.client import client_for
from llm.stream import StreamAccumulator, stream_chat
from tools.catalog import CATALOG, WriteTool
from tools.context import ActionContext, SessionUser, action_context_for
from tools.harness import GuardedHarness, Harness, OutcomeStatus
from tools.mandate import Mandate, mandate_for
from tools.models import Proposal, ToolCallTrace
from tools.proposals import proposal_supersede_older, proposals_spending
from tools.provenance import EXTERNAL_NOTE, Source, plain
from tools.trace import trace_record

log = logging.getLogger(__name__)

MAX_TOOL_STEPS = 6
HISTORY_MESSAGES = 40

SYSTEM_PROMPT = """You are BankBot, the support assistant of a bank in Kazakhstan. Today is {today}.
You help the signed-in customer with their statements, cards and disputes, using the tools.
You may read the customer's data at once. You cannot block a card or open a dispute yourself:
those tools only prepare a card that the customer confirms with a click. Never say an action
happened unless a confirmation result says so. Amounts are in KZT; copy them exactly from tool
results. {external_note}
Answer briefly, in the customer's language."""


@dataclass(frozen=True)
class TurnEvent:
    class Kind(StrEnum):
        TOKEN = "token"  # noqa: S105 (checked answer text, as it streams; not a secret)
        TOOL = "tool"  # a tool's answer, without provenance labels
        PROPOSAL = "proposal"  # a write's confirm card
        FINAL = "final"  # the stored answer
        ERROR = "error"  # the stored failure, retryable
        OFFER = "offer"  # "Talk to a specialist", offered by code (bankbot/person_request.py)
        HELD = "held"  # a person holds the conversation: no answer from the model (text: their name)

    kind: Kind
    text: str = ""
    proposal: Proposal | None = None
    message: Message | None = None
    data: dict[str, Any] | None = None


class TurnFailed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


HarnessFactory = Callable[[ActionContext, list[Source]], Harness]


@dataclass(frozen=True)
class TurnConfig:
    """How a turn is played, chosen by its caller. The default is the chat's: the
    guarded harness built from the session, checked answers, and a row's button
    answered without the model. The Injection Lab and the benchmarks build their own
    (the naive harness, no output check, every click played through the model)."""

    harness: HarnessFactory = GuardedHarness
    check_output: bool = True
    answer_clicks: bool = True


CHAT_TURN = TurnConfig()


def _ignore(event: TurnEvent) -> None:
    return None


def run_turn(
    *,
    user: SessionUser,
    conversation: Conversation,
    customer_message: Message,
    on_event: Callable[[TurnEvent], None] = _ignore,
    client: openai.OpenAI | None = None,
    turn_config: TurnConfig = CHAT_TURN,
    stop: StopSignal | None = None,
) -> Message:
    """Answer ``customer_message``. Never raises for a model failure: it emits an
    "error" event and stores a message the customer can act on.

    The chat passes no ``turn_config``, so customers always get the guarded harness
    built here from their session, and checked answers. ``stop``, once set (the
    worker is shutting down), ends the turn before its next model call with
    ``TurnStopped``: what was stored stays, and the customer can retry.

    While a person from support holds the conversation (``bankbot/handover.py``) the
    model is not called at all: the message is theirs to answer, and the turn ends
    with a "held" event. A message that asks for a person is answered by code with
    the offer of one; a lost card someone is using, or a second failure in a row, gets
    the offer under the model's answer (``bankbot/person_request.py``)."""
    holder = handover.holder_name(conversation)
    if holder is not None:
        on_event(TurnEvent(TurnEvent.Kind.HELD, text=holder, message=customer_message))
        return customer_message
    reason = None if customer_message.ui_action else person_request.reason_in(customer_message.text)
    if reason == person_request.ASKED:
        return _offer_person(conversation, reason, on_event)

    def offering(event: TurnEvent) -> None:
        """The offer goes just before the turn's last event, under its answer."""
        if event.kind in (TurnEvent.Kind.FINAL, TurnEvent.Kind.ERROR):
            why = reason
            if event.kind == TurnEvent.Kind.ERROR and person_request.failed_twice(conversation):
                why = person_request.FAILED_TWICE
            if why is not None:
                _offer_stored(conversation, why, on_event)
        on_event(event)

    return _run_turn(
        user=user,
        conversation=conversation,
        customer_message=customer_message,
        on_event=offering,
        client=client,
        turn_config=turn_config,
        stop=stop,
    )


def _offer_stored(conversation: Conversation, reason: str, on_event: Callable[[TurnEvent], None]) -> Message:
    note = message_add(
        conversation=conversation,
        role=Message.Role.SYSTEM,
        payload=PersonOfferPayload(kind=PERSON_OFFER, reason=reason),
    )
    on_event(TurnEvent(TurnEvent.Kind.OFFER, text=reason, message=note))
    return note


def _offer_person(conversation: Conversation, reason: str, on_event: Callable[[TurnEvent], None]) -> Message:
    """The customer asked for a person: code answers, with the button; no model call
    (the model never decides a hand-over, and never answers it with what it can do)."""
    message = message_add(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=_("I can put you through to a specialist from our support team."),
    )
    _offer_stored(conversation, reason, on_event)
    on_event(TurnEvent(TurnEvent.Kind.FINAL, text=message.text, message=message))
    return message


def _run_turn(
    *,
    user: SessionUser,
    conversation: Conversation,
    customer_message: Message,
    on_event: Callable[[TurnEvent], None],
    client: openai.OpenAI | None,
    turn_config: TurnConfig,
    stop: StopSignal | None,
) -> Message:
    config = settings.BANKBOT_MODEL_CONFIG
    mandate = turn_mandate(
        conversation,
        customer_message,
        extractor=(client or client_for(config))
        if (settings.BANKBOT_MANDATE_EXTRACTOR == "model" and not config.is_offline)
        else None,
        model=config.model,
    )
    ctx = action_context_for(user, conversation, mandate=mandate)
    ctx.spent.update(proposals_spending(ctx, since=customer_message.created_at))
    if turn_config.answer_clicks and (click := selected_call(ctx, customer_message)) is not None:
        return _answer_click(conversation, ctx, click, on_event)
    harness = turn_config.harness(ctx, _sources_seen(conversation))
    check_output = turn_config.check_output
    try:
        client = client or client_for(config)
        messages = [_system_message(), *history_for_model(conversation)]
        tools = harness.tools()  # the same list for every step: built once (Pydantic schemas)
        # The answer streams a sentence at a time, each checked before it is shown
        # (G10), and what was shown is the answer stored. One gate for the turn: the
        # browser shows every step's text in one bubble.
        gate = StreamGate(_known_text(conversation)) if check_output else None
        for step in range(MAX_TOOL_STEPS):
            if gate and step:
                gate.know(_known_text(conversation))  # with this turn's new tool results
            _release_connection()
            if stop is not None:
                stop.check()
            reply = _complete(client, config.model, messages, tools, on_event, gate)
            tool_calls = [_function_call(call) for call in reply.tool_calls or []]
            if not tool_calls:
                if not (reply.content or "").strip():
                    raise TurnFailed(
                        "empty_reply",
                        _("The assistant returned an empty answer. Your message is saved; press Retry."),
                    )
                if gate is None:
                    return _finish(conversation, reply.content or "", ctx, on_event, check_output)
                if rest := gate.finish():
                    on_event(TurnEvent(TurnEvent.Kind.TOKEN, text=rest))
                return _finish_streamed(conversation, gate, ctx, on_event)
            messages.append(_store_tool_calls(conversation, reply.content or "", tool_calls))
            for call in tool_calls:
                messages.append(_run_tool(conversation, harness, call, on_event))
        raise TurnFailed(
            "step_cap",
            _(
                "The assistant could not finish this request in "
                "%(steps)s steps, so it stopped. Nothing was changed; "
                "try asking more simply."
            )
            % {"steps": MAX_TOOL_STEPS},
        )
    except TurnFailed as failure:
        return _fail(conversation, ctx, failure.code, failure.message, on_event)
    except openai.LengthFinishReasonError:
        # The SDK's stream state raises these two itself; they are not APIErrors.
        return _fail(
            conversation,
            ctx,
            "model_truncated",
            _(
                "The assistant's answer was cut off before it finished. Your message is saved; "
                "press Retry, or ask for less at once."
            ),
            on_event,
        )
    except openai.ContentFilterFinishReasonError:
        return _fail(
            conversation,
            ctx,
            "model_filtered",
            _(
                "The assistant's service withheld its answer. Your message is saved; press Retry, "
                "or put the question another way."
            ),
            on_event,
        )
    except openai.APITimeoutError:
        return _fail(
            conversation,
            ctx,
            "model_timeout",
            _("The assistant took too long to answer. Your message is saved; press Retry."),
            on_event,
        )
    except openai.APIConnectionError:
        return _fail(
            conversation,
            ctx,
            "model_unreachable",
            _("The assistant could not be reached. Your message is saved; press Retry."),
            on_event,
        )
    except openai.APIStatusError as error:
        return _fail(
            conversation,
            ctx,
            "model_error",
            _(
                "The assistant's service answered with an error (HTTP %(status)s). Your message "
                "is saved; press Retry."
            )
            % {"status": error.status_code},
            on_event,
        )
    except (openai.APIError, ValueError) as error:  # malformed stream or payload
        log.warning("model failure: %s", error)
        return _fail(
            conversation,
            ctx,
            "model_error",
            _("The assistant's answer could not be read. Your message is saved; press Retry."),
            on_event,
        )


def _answer_click(
    conversation: Conversation,
    ctx: ActionContext,
    click: ChatCompletionMessageFunctionToolCall | DomainError,
    on_event: Callable[[TurnEvent], None],
) -> Message:
    """A click on a row's button (bankbot/selection.py): its one call, through a
    harness that has read nothing (no text shaped it), then a line — no model."""
    if isinstance(click, DomainError):
        return _finish(conversation, click.message, ctx, on_event)
    answers: list[dict[str, Any]] = []

    def seen(event: TurnEvent) -> None:
        if event.kind == TurnEvent.Kind.TOOL and event.data is not None:
            answers.append(event.data)
        on_event(event)

    _store_tool_calls(conversation, "", [click])
    _run_tool(conversation, GuardedHarness(ctx, []), click, seen)
    answer = answers[-1] if answers else {}
    return _finish(
        conversation,
        selection_answer(
            answer.get("status") == OutcomeStatus.AWAITING_CONFIRMATION,
            str((answer.get("error") or {}).get("message", "")),
        ),
        ctx,
        on_event,
    )


def turn_mandate(
    conversation: Conversation,
    customer_message: Message,
    *,
    extractor: openai.OpenAI | None = None,
    model: str = "",
) -> Mandate:
    """The mandate of this turn: the message it answers (or the click), and nothing
    older — a request made earlier does not authorise this turn's writes (G7)."""
    source = f"message:{customer_message.pk}"
    mandate = mandate_for(
        customer=conversation.customer,
        text=customer_message.text,
        ui_action=customer_message.ui_action,
        source=source,
    )
    if extractor is not None and not customer_message.ui_action:
        mandate = mandate_with_model(
            extractor, model, customer_message.text, mandate, customer=conversation.customer, source=source
        )
    return mandate


def _release_connection() -> None:
    """A turn does not hold a pooled database connection while it waits for the
    model (seconds, with a real one): it gives it back to the pool, and its next
    query takes one again. Otherwise DB_POOL_MAX_SIZE would cap a worker's
    concurrent turns, and every request would queue behind them."""
    if getattr(connection, "pool", None) is not None and not connection.in_atomic_block:
        connection.close()


def _system_message() -> ChatCompletionSystemMessageParam:
    return {
        "role": "system",
        "content": SYSTEM_PROMPT.format(today=timezone.localdate().isoformat(), external_note=EXTERNAL_NOTE),
    }


def history_for_model(conversation: Conversation) -> list[ChatCompletionMessageParam]:
    """The stored conversation in Chat Completions form, latest messages only."""
    rows = list(conversation.messages.order_by("-id")[:HISTORY_MESSAGES])[::-1]
    while rows and rows[0].role == Message.Role.TOOL:  # never start with an orphaned result
        rows.pop(0)
    history: list[ChatCompletionMessageParam] = []
    for row in rows:
        if row.role == Message.Role.CUSTOMER:
            history.append({"role": "user", "content": row.text or _describe(row.ui_action)})
        elif row.role == Message.Role.ASSISTANT:
            entry: ChatCompletionAssistantMessageParam = {"role": "assistant", "content": row.text or None}
            if calls := tool_calls_of(row):
                entry["tool_calls"] = cast("list[ChatCompletionMessageToolCallParam]", calls)
            history.append(entry)
        elif row.role == Message.Role.TOOL and (result := tool_result_of(row.payload)):
            history.append(
                {"role": "tool", "tool_call_id": result["tool_call_id"], "content": result["content"]}
            )
        elif row.role == Message.Role.SYSTEM and is_for_the_model(row):
            history.append({"role": "system", "content": row.text})
    return history


def _describe(ui_action: dict[str, str] | None) -> str:
    """A click, as the customer's words in the model's history (its tool's English)."""
    spec = CATALOG.get(str((ui_action or {}).get("operation")))
    if not ui_action or not isinstance(spec, WriteTool):
        return ""
    return spec.ui.history(ui_action)


def _sources_seen(conversation: Conversation) -> list[Source]:
    sources: list[Source] = []
    for payload in conversation.messages.filter(role=Message.Role.TOOL).values_list("payload", flat=True):
        result = tool_result_of(payload)
        for item in result["sources"] if result else []:
            sources.append(Source(**item))
    return sources


def _complete(
    client: openai.OpenAI,
    model: str,
    messages: list[ChatCompletionMessageParam],
    tools: list[dict[str, Any]],
    on_event: Callable[[TurnEvent], None],
    gate: StreamGate | None = None,
) -> ChatCompletionMessage:
    """One streamed model call; text goes out as it comes, through ``gate`` (checked
    text only) when there is one. The chunks are accumulated as they come and the
    completion is built once at the end (llm/stream.py: the SDK's request
    and stream, without its per-token models); tool arguments are not parsed here:
    validating them is the harness's job."""
    state = StreamAccumulator()
    # The catalog's schemas are openai's own pydantic_function_tool output.
    stream = stream_chat(client, model=model, messages=messages, tools=tools)
    for chunk in stream:
        state.handle_chunk(chunk)
        for choice in chunk.choices:
            if choice.delta.content:
                shown = gate.feed(choice.delta.content) if gate else choice.delta.content
                if shown:
                    on_event(TurnEvent(TurnEvent.Kind.TOKEN, text=shown))
    if gate and (shown := gate.end_call()):  # a finished sentence goes before any table
        on_event(TurnEvent(TurnEvent.Kind.TOKEN, text=shown))
    completion = state.get_final_completion()
    if not completion.choices:
        raise TurnFailed(
            "empty_reply", _("The assistant returned no answer. Your message is saved; press Retry.")
        )
    return completion.choices[0].message


def _function_call(call: ChatCompletionMessageToolCallUnion) -> ChatCompletionMessageFunctionToolCall:
    """A tool call as the harness takes it: a function's name and its arguments. The
    catalog offers functions only; a call of any other kind is an answer that cannot
    be read (ValueError, as a malformed stream is)."""
    if not isinstance(call, ChatCompletionMessageFunctionToolCall):
        raise ValueError(f"the model made a tool call of type {call.type!r}")
    return call


def _store_tool_calls(
    conversation: Conversation, content: str, tool_calls: Sequence[ChatCompletionMessageFunctionToolCall]
) -> ChatCompletionAssistantMessageParam:
    calls: list[ChatCompletionMessageToolCallParam] = [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.function.name, "arguments": c.function.arguments},
        }
        for c in tool_calls
    ]
    message_add(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=content,
        payload=ToolCallsPayload(tool_calls=[dict(call) for call in calls]),
    )
    return {"role": "assistant", "content": content or None, "tool_calls": calls}


def _run_tool(
    conversation: Conversation,
    harness: Harness,
    call: ChatCompletionMessageFunctionToolCall,
    on_event: Callable[[TurnEvent], None],
) -> ChatCompletionToolMessageParam:
    before = len(harness.sources)
    outcome = harness.call(call.function.name, call.function.arguments)
    content = outcome.for_model()
    new_sources = [s.as_dict() for s in harness.sources[before:]]
    message_add(
        conversation=conversation,
        role=Message.Role.TOOL,
        text="",
        payload=ToolResultPayload(
            tool_call_id=call.id,
            name=outcome.tool,
            status=outcome.status,
            content=content,
            sources=new_sources,
        ),
    )
    # The answer the model reads, without its provenance labels: the chat shows it
    # live exactly as it shows the stored tool message (bankbot/fragments.py).
    on_event(TurnEvent(TurnEvent.Kind.TOOL, text=outcome.tool, data=plain(outcome.message())))
    if outcome.proposal is not None:
        # Older cards of the same action can no longer be confirmed: every tab shows so.
        push_cards(proposal_supersede_older(outcome.proposal))
        on_event(TurnEvent(TurnEvent.Kind.PROPOSAL, proposal=outcome.proposal))
    return {"role": "tool", "tool_call_id": call.id, "content": content}


def _finish(
    conversation: Conversation,
    text: str,
    ctx: ActionContext,
    on_event: Callable[[TurnEvent], None],
    check_output: bool = True,
) -> Message:
    if not check_output:
        message = message_add(conversation=conversation, role=Message.Role.ASSISTANT, text=text)
        on_event(TurnEvent(TurnEvent.Kind.FINAL, text=text, message=message))
        return message
    checked = check_answer(text, known_text=_known_text(conversation))
    message = message_add(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=checked.text,
        flagged=" ".join(checked.problems),
    )
    if checked.flagged:
        trace_record(
            event=ToolCallTrace.Event.FLAGGED,
            decision="flag",
            ctx=ctx,
            reason_code="output_check",
            reason=" ".join(checked.problems),
            result={"original": text[:2000]},
        )
    on_event(TurnEvent(TurnEvent.Kind.FINAL, text=checked.text, message=message))
    return message


def _finish_streamed(
    conversation: Conversation, gate: StreamGate, ctx: ActionContext, on_event: Callable[[TurnEvent], None]
) -> Message:
    """The answer the customer has watched stream, stored as it was shown: every
    sentence checked, what the check removed replaced by its note, nothing taken
    back (G10). A removal is traced with what the model wrote."""
    message = message_add(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=gate.text,
        flagged=" ".join(gate.problems),
    )
    if gate.flagged:
        trace_record(
            event=ToolCallTrace.Event.FLAGGED,
            decision="flag",
            ctx=ctx,
            reason_code="output_check",
            reason=" ".join(gate.problems),
            result={"original": gate.raw[:2000]},
        )
    on_event(TurnEvent(TurnEvent.Kind.FINAL, text=gate.text, message=message))
    return message


def _known_text(conversation: Conversation) -> Iterator[Known]:
    """What the answer's amounts and contacts may come from (G10), newest first and
    read lazily: the conversation's tool results (whose merchant-written fields the
    check skips), then the customer's and the bank's system messages. First, the
    customer's cards as they are now: a card's state said in words must be its state."""
    yield Known(
        json.dumps(
            {
                "cards": [
                    {"card": card.last4, "status": str(card.status)}
                    for card in cards_for_customer(customer=conversation.customer)
                ]
            }
        )
    )
    for payload in (
        conversation.messages.filter(role=Message.Role.TOOL).order_by("-id").values_list("payload", flat=True)
    ):
        if result := tool_result_of(payload):
            yield Known(result["content"])
    for role, text in (
        conversation.messages.filter(role__in=[Message.Role.CUSTOMER, Message.Role.SYSTEM])
        .order_by("-id")
        .values_list("role", "text")
    ):
        yield Known(text, by_customer=role == Message.Role.CUSTOMER)


def _fail(
    conversation: Conversation,
    ctx: ActionContext,
    code: str,
    text: str,
    on_event: Callable[[TurnEvent], None],
) -> Message:
    trace_record(
        event=ToolCallTrace.Event.MODEL_ERROR, decision="error", ctx=ctx, reason_code=code, reason=text
    )
    message = message_add(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=text,
        payload=FailurePayload(error=code, retryable=True),
    )
    on_event(TurnEvent(TurnEvent.Kind.ERROR, text=text, message=message))
    return message
