"""A turn looks the same streamed and reloaded: the live events and the stored
conversation are read into the same extras (bankbot/fragments.py)."""

from __future__ import annotations

import pytest

from accounts.models import Transaction
from bankbot.agent import run_turn
from bankbot.chat import message_customer_add
from bankbot.fragments import render_event, timeline, tool_extras
from tests.agent.fakes import ScriptedModel, call, text
from tests.chat.helpers import statement_request
from tests.factories import days_ago

pytestmark = pytest.mark.django_db


def turn(conversation, words: str, *replies):
    message, _ = message_customer_add(conversation=conversation, text=words)
    events = []
    run_turn(
        user=conversation.customer.user,
        conversation=conversation,
        customer_message=message,
        on_event=events.append,
        client=ScriptedModel(*replies).client() if replies else None,
    )
    return events


def live_extras(events) -> list[dict]:
    extras = []
    for event in events:
        if event.kind == "tool":
            extras += tool_extras(event.data)
        elif event.kind == "proposal":
            extras.append({"kind": "proposal", "proposal": event.proposal})
    return extras


def reloaded_extras(conversation) -> list[dict]:
    return [extra for item in timeline(conversation) if item["kind"] == "turn" for extra in item["extras"]]


def test_a_statement_table_is_the_same_live_and_reloaded(alice_conversation):
    events = turn(alice_conversation, statement_request())
    live = live_extras(events)
    assert [extra["tool"] for extra in live] == ["get_statement"]
    assert live == reloaded_extras(alice_conversation)


def test_the_candidates_are_the_same_live_and_reloaded(alice_conversation):
    Transaction.objects.create(
        account=alice_conversation.customer.accounts.get(),
        reference="T-1009",
        posted_at=days_ago(9),
        amount="7300.00",
        merchant="Magnum Cash&Carry",
        description="Groceries",
    )
    events = turn(
        alice_conversation,
        "please dispute the Magnum charge",
        call("raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"}),
        text("Which Magnum charge do you mean?"),
    )
    live = live_extras(events)
    assert [extra["kind"] for extra in live] == ["candidates"]
    assert live == reloaded_extras(alice_conversation)


def test_a_confirm_card_is_the_same_live_and_reloaded(alice_conversation):
    events = turn(
        alice_conversation,
        "block my card 4242",
        call("block_card", {"card": "4242"}),
        text("Please confirm."),
    )
    live = live_extras(events)
    assert [extra["kind"] for extra in live] == ["proposal"]
    assert live == reloaded_extras(alice_conversation)


def test_a_denial_shows_nothing_under_the_answer(alice_conversation):
    events = turn(
        alice_conversation, "hello", call("block_card", {"card": "4242"}), text("I cannot do that.")
    )
    tool = next(event for event in events if event.kind == "tool")
    assert tool.data["status"] == "error"
    assert render_event(tool, turn="a" * 12, conversation=alice_conversation) == ""
    assert reloaded_extras(alice_conversation) == []
