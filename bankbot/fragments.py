"""A turn as HTML, live or reloaded: an event of a running turn becomes an
out-of-band fragment for the socket (``bankbot/stream.html``), and the stored
conversation becomes the page's timeline (``bankbot/chat.html``). Both read a
tool's answer through ``tool_extras``, so a table, the candidates or a confirm
card looks the same whichever way it arrives.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bankbot.agent import TurnEvent
from bankbot.chat import (
    ToolResultPayload,
    failure_of,
    person_note_of,
    person_offer_of,
    staff_proposal_of,
    tool_calls_of,
    tool_result_of,
)
from bankbot.handover import staff_display_name
from bankbot.models import Conversation, Message
from bankbot.news import news_of
from bankbot.turn_store import TurnState, turn_store
from tools.harness import OutcomeStatus
from tools.models import Proposal

STREAM = "bankbot/stream.html"

# The read tools whose result the chat shows as a table or a list (chat.html#extra).
TOOL_PARTIALS = frozenset(
    {"get_statement", "list_cards", "find_transactions", "get_spending", "get_balance", "get_disputes"}
)

Extra = dict[str, Any]

# A turn that broke off: a bug in it, or its worker gone (its lease lapsed).
TURN_BROKE_OFF = gettext_lazy("Something went wrong while answering. Your message is saved; press Retry.")


def group_name(conversation: Conversation) -> str:
    return f"chat.{conversation.public_id.hex}"


def new_turn_id() -> str:
    return uuid.uuid4().hex[:12]


def tool_extras(answer: Mapping[str, Any], proposals: Mapping[str, Proposal] | None = None) -> list[Extra]:
    """What a tool's answer (the harness's structured answer, provenance labels
    dropped) shows under the turn: a read's table, a write's candidates to pick
    from, or — given the conversation's proposals by reference — its confirm card.
    A denial or an error shows nothing: the model's answer explains it."""
    status, tool = answer.get("status"), answer.get("tool")
    if status == OutcomeStatus.OK and tool in TOOL_PARTIALS:
        return [{"kind": "tool", "tool": tool, "result": answer.get("data") or {}}]
    candidates = answer.get("candidates")
    if status == OutcomeStatus.ERROR and isinstance(candidates, dict) and candidates:
        # How many, and whether they fit every word or are only the nearest: the
        # heading above the buttons says which (chat.html#candidates).
        rows = candidates.get("cards") or candidates.get("transactions") or []
        return [
            {
                "kind": "candidates",
                "result": candidates,
                "fit": candidates.get("fit", ""),
                "count": len(rows) if isinstance(rows, list) else 0,
            }
        ]
    proposal = (proposals or {}).get(str(answer.get("proposal", "")))
    if status == OutcomeStatus.AWAITING_CONFIRMATION and proposal is not None:
        return [{"kind": "proposal", "proposal": proposal}]
    return []


# --- live: one event of a running turn → an out-of-band fragment ----------------


def render_event(event: TurnEvent, *, turn: str, conversation: Conversation) -> str:
    """One event of a turn as an out-of-band fragment ("" when there is nothing to show).
    A write's confirm card comes as its own "proposal" event, after its tool event."""
    if event.kind == TurnEvent.Kind.TOKEN:
        return render_text(event.text, turn=turn)
    if event.kind == TurnEvent.Kind.TOOL:
        extras = tool_extras(event.data or {})
    elif event.kind == TurnEvent.Kind.PROPOSAL and event.proposal is not None:
        extras = [{"kind": "proposal", "proposal": event.proposal}]
    elif event.kind == TurnEvent.Kind.FINAL:
        flagged = event.message.flagged if event.message is not None else ""
        return render_to_string(
            f"{STREAM}#bubble",
            {
                "conversation": conversation,
                "turn": {"id": turn, "text": event.text, "flagged": flagged, "suggest": True},
            },
        )
    elif event.kind == TurnEvent.Kind.ERROR:
        return render_failure(turn=turn, conversation=conversation, text=event.text)
    elif event.kind == TurnEvent.Kind.OFFER:
        extras = [{"kind": "offer", "reason": event.text}]
    elif event.kind == TurnEvent.Kind.HELD:
        return render_to_string(
            f"{STREAM}#held", {"turn": {"id": turn}, "conversation": conversation, "holder": event.text}
        )
    else:
        return ""
    return "".join(
        render_to_string(
            f"{STREAM}#extra", {"turn": {"id": turn}, "conversation": conversation, "extra": extra}
        )
        for extra in extras
    )


def render_text(text: str, *, turn: str) -> str:
    """Streamed answer text (one delta, or several joined), appended to the bubble."""
    return render_to_string(f"{STREAM}#token", {"turn": {"id": turn}, "event": {"text": text}})


def render_failure(*, turn: str, conversation: Conversation, text: str) -> str:
    """The turn's bubble as a failure, with Retry."""
    return render_to_string(
        f"{STREAM}#bubble",
        {"conversation": conversation, "turn": {"id": turn, "text": text, "failed": True, "retry": True}},
    )


def render_turn_start(*, turn: str, message: Message, conversation: Conversation, new_title: str = "") -> str:
    """The customer's stored message and the new turn's streaming bubble."""
    return render_to_string(
        f"{STREAM}#turn-start",
        {
            "turn": {"id": turn, "streaming": True},
            "message": message,
            "conversation": conversation,
            "new_title": new_title,
        },
    )


def render_turn_retry(*, turn: str, retry_of: str | None, conversation: Conversation) -> str:
    """A retried turn's streaming bubble; the failed turn's Retry button goes."""
    return render_to_string(
        f"{STREAM}#turn-retry",
        {"turn": {"id": turn, "streaming": True}, "retry_of": retry_of, "conversation": conversation},
    )


def render_turn_afresh(*, turn: str, conversation: Conversation) -> str:
    """A running turn's assistant message as it began, replacing the page's (by its
    id): a socket that connects mid-turn is then sent the turn's fragments so far."""
    return render_to_string(
        f"{STREAM}#turn-afresh", {"turn": {"id": turn, "streaming": True}, "conversation": conversation}
    )


async def turns_so_far(conversation: Conversation, language: str) -> list[tuple[str, int, str, bool]]:
    """For a socket that connects: each turn of the conversation's running or just
    ended, on any worker (bankbot/turn_store.py), as (its id, how many of its
    fragments, one frame, whether it runs) — its assistant message afresh, in place of the one the
    page shows (by its id: nothing is added where the page has none), then every
    fragment it has sent so far. The rest comes through the group. A turn abandoned
    (its worker gone) is its message as failed, with Retry: nothing more will come."""
    frames = []
    for kept in await turn_store().so_far(conversation.public_id.hex):
        with translation.override(language):
            if kept.state is TurnState.ABANDONED:
                frames.append(
                    (kept.turn, 0, render_abandoned(turn=kept.turn, conversation=conversation), False)
                )
                continue
            fresh = render_turn_afresh(turn=kept.turn, conversation=conversation)
        running = kept.state is TurnState.RUNNING
        frames.append((kept.turn, len(kept.fragments), fresh + "".join(kept.fragments), running))
    return frames


def render_abandoned(*, turn: str, conversation: Conversation) -> str:
    """A turn whose worker is gone: its message as failed, with Retry."""
    return render_failure(turn=turn, conversation=conversation, text=str(TURN_BROKE_OFF))


def render_notice(text: str, *, refused: str = "") -> str:
    """A notice above the messages, for one socket; with ``refused`` (a client
    message id) also the receipt saying that message was not sent."""
    return render_to_string(f"{STREAM}#notice", {"text": text, "client_message_id": refused})


def render_receipt(client_message_id: str) -> str:
    """The receipt of a message stored before (a resent frame): it was accepted."""
    return render_to_string(f"{STREAM}#receipt", {"client_message_id": client_message_id})


# --- reloaded: the stored conversation → the page's timeline ----------------------


def timeline(
    conversation: Conversation,
    in_flight: Mapping[int, str] | None = None,
    abandoned: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """The conversation as the page shows it: customer messages, and for each of
    them the assistant's turn — its answer, then the tables and confirm cards it
    produced (the same order as while it streams). ``in_flight``: the turns running
    now, by the customer message they answer (bankbot/turn_store.py): each shows
    in progress, under its own id, and the socket sends what it has said so far.
    ``abandoned``: the turns whose worker is gone (their lease lapsed): each shows
    as failed, with Retry, under its own id."""
    by_reference = {p.reference: p for p in conversation.proposals.select_related("proposed_by")}
    items: list[dict[str, Any]] = []
    turn: dict[str, Any] | None = None
    for message in conversation.messages.select_related("author"):
        if message.role == Message.Role.CUSTOMER:
            items.append({"kind": "customer", "message": message})
            turn = None
            continue
        news = news_of(message)
        if news is not None:  # the bank's news about a dispute: between turns
            items.append(news)
            turn = None
            continue
        staff = staff_proposal_of(message)
        if staff is not None:  # a card support staff proposed: between turns too
            if (proposal := by_reference.get(staff["proposal"])) is not None:
                items.append({"kind": "staff_proposal", "message": message, "proposal": proposal})
            turn = None
            continue
        if message.role == Message.Role.STAFF:  # a person from support: between turns
            items.append(_staff_item(message))
            turn = None
            continue
        if (person := person_note_of(message)) is not None:
            items.append({"kind": "person_note", "message": message, "note": person})
            turn = None
            continue
        if (offer := person_offer_of(message)) is not None:  # under the answer it follows
            last = items[-1] if items and items[-1]["kind"] == "turn" else None
            if last is not None:
                last["extras"].append({"kind": "offer", "reason": offer["reason"]})
            continue
        if message.role not in (Message.Role.ASSISTANT, Message.Role.TOOL):
            continue  # other system notes (confirmation results) are for the model
        if turn is None:
            turn = {
                "kind": "turn",
                "id": new_turn_id(),
                "text": "",
                "flagged": "",
                "failed": False,
                "extras": [],
            }
            items.append(turn)
        if message.role == Message.Role.TOOL:
            result = tool_result_of(message.payload)
            turn["extras"] += tool_extras(_stored_answer(result), by_reference) if result else []
        elif failure_of(message):
            turn.update(text=message.text, failed=True)
            turn = None  # a retry answers in a new turn
        elif message.text and not tool_calls_of(message):
            turn.update(text=message.text, flagged=message.flagged)
    if items and items[-1]["kind"] == "turn" and items[-1]["failed"]:
        items[-1]["retry"] = True
    _suggest_after_latest_answer(items)
    return _broken_off(_in_progress(items, in_flight or {}), abandoned or {})


def _in_progress(items: list[dict[str, Any]], in_flight: Mapping[int, str]) -> list[dict[str, Any]]:
    """Each running turn as the streaming message it is, in place of what its
    stored part (tool calls, tables) would show: the socket sends it all again."""
    if not in_flight:
        return items
    shown: list[dict[str, Any]] = []
    running: str | None = None
    for item in items:
        if running is not None and item["kind"] == "turn":
            if item["failed"]:  # an earlier try, which the running one retries
                shown.append({**item, "retry": False})
            continue  # else the running turn's stored part: replaced below
        if running is not None:
            shown.append({"kind": "turn", "id": running, "streaming": True, "extras": []})
            running = None
        shown.append(item)
        if item["kind"] == "customer":
            running = in_flight.get(item["message"].pk)
    if running is not None:
        shown.append({"kind": "turn", "id": running, "streaming": True, "extras": []})
    return shown


def _broken_off(items: list[dict[str, Any]], abandoned: Mapping[int, str]) -> list[dict[str, Any]]:
    """The customer's latest message, if its turn was abandoned (its worker gone)
    before anything was stored to answer it: the turn as failed, with Retry, in place
    of its stored part (tool calls, tables). A stored answer, a stored failure (which
    offers Retry already) or a retry running is shown as it is."""
    said = [index for index, item in enumerate(items) if item["kind"] == "customer"]
    if not said or (turn := abandoned.get(items[said[-1]]["message"].pk)) is None:
        return items
    before, after = items[: said[-1] + 1], items[said[-1] + 1 :]
    if any(
        item["kind"] == "turn" and (item.get("streaming") or item["failed"] or item["text"]) for item in after
    ):
        return items
    failed = {
        "kind": "turn",
        "id": turn,
        "text": str(TURN_BROKE_OFF),
        "failed": True,
        "retry": True,
        "extras": [],
    }
    return before + [item for item in after if item["kind"] != "turn"] + [failed]


def _suggest_after_latest_answer(items: list[dict[str, Any]]) -> None:
    """The suggestions go under the latest answer (the bank's news after it aside),
    once it is whole: not under a failed turn, nor while the customer's latest message
    waits for its answer (the live turn adds them when it ends)."""
    for item in reversed(items):
        if item["kind"] == "news":
            continue
        if item["kind"] == "turn" and item["text"] and not item["failed"]:
            item["suggest"] = True
        return


def _stored_answer(result: ToolResultPayload) -> dict[str, Any]:
    """A tool message's answer as the model read it, without provenance labels."""
    try:
        answer = json.loads(result["content"] or "{}")
    except ValueError:
        return {}
    return _without_labels(answer) if isinstance(answer, dict) else {}


def _without_labels(value: Any) -> Any:
    """Labelled external text back to plain text (the template escapes it)."""
    if isinstance(value, dict):
        if set(value) == {"external_text", "author"}:
            return value["external_text"]
        return {key: _without_labels(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_labels(item) for item in value]
    return value


def render_person(message: Message, conversation: Conversation) -> str:
    """A staff member's message or the hand-over's news (``support/``), appended to the
    page's messages in the page's language; the composer's notices are cleared."""
    note = person_note_of(message)
    item: dict[str, Any] = (
        {"kind": "person_note", "message": message, "note": note}
        if note is not None
        else _staff_item(message)
    )
    return render_to_string(f"{STREAM}#person", {"item": item, "conversation": conversation})


def _staff_item(message: Message) -> dict[str, Any]:
    author = message.author
    return {
        "kind": "staff",
        "message": message,
        "name": staff_display_name(author) if author is not None else _("Support"),
    }


def for_socket(event: Mapping[str, Any], conversation: str, language: str) -> str:
    """A group's fragment as one socket shows it. News from the bank comes in each
    language, and in another version for a tab showing another conversation than the
    news's own (``conversation``: the socket's, as a hex id)."""
    versions = event.get("html_by_language", {})
    if event.get("conversation", conversation) != conversation:
        versions = event.get("elsewhere_by_language", {})
    return str(versions.get(language, event["html"]))
