"""Fixtures for the hand-over: two support staff members and a queued conversation."""

from __future__ import annotations

from typing import Any

import pytest

from bankbot.models import Conversation
from support.models import Handoff
from tests.support.helpers import make_support_staff, queued


@pytest.fixture
def aigerim(db: None) -> Any:
    return make_support_staff("aigerim", "Aigerim")


@pytest.fixture
def dias(db: None) -> Any:
    return make_support_staff("dias", "Dias")


@pytest.fixture
def handoff(alice_conversation: Conversation) -> Handoff:
    return queued(alice_conversation)


@pytest.fixture
def say() -> Any:
    """say(conversation, "text", client=...) → (what the turn returned, its events)."""
    from bankbot.agent import run_turn
    from bankbot.chat import message_customer_add

    def run(conversation: Conversation, words: str, client: Any = None) -> tuple[Any, list[Any]]:
        message, _ = message_customer_add(conversation=conversation, text=words)
        events: list[Any] = []
        reply = run_turn(
            user=conversation.customer.user,
            conversation=conversation,
            customer_message=message,
            on_event=events.append,
            client=client,
        )
        return reply, events

    return run
