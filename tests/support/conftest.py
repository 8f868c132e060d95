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


@pytest.fixture
def browser_for() -> Any:
    """browser_for(alice or a staff user) → a Client signed in as them."""
    from django.test import Client

    def make(who: Any) -> Client:
        client = Client()
        client.force_login(getattr(who, "user", who))
        return client

    return make


@pytest.fixture
def connect() -> Any:
    """await connect(conversation, user=..., lang="en") → (communicator, connected), through
    config.asgi.application as the chat's tests open a socket (origin, session, routing)."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.chat.helpers import ORIGIN, session_cookie

    async def open_socket(conversation: Conversation, *, user: Any, lang: str = "en") -> tuple[Any, bool]:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers = [(b"host", b"127.0.0.1"), (b"origin", ORIGIN.encode()), (b"cookie", cookie.encode())]
        communicator = WebsocketCommunicator(
            application, f"/ws/chat/{conversation.public_id}/?lang={lang}", headers=headers
        )
        connected, _ = await communicator.connect(timeout=5)
        return communicator, connected

    return open_socket
