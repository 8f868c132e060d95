"""Fixtures for the chat's pages and socket: signed-in clients, proposals made
through the real harness, and WebSocket connections through the real ASGI stack.
Frames, cookies and the like are in tests/chat/helpers.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import Customer
from bankbot import turns
from bankbot.models import Conversation
from tests.chat.helpers import ORIGIN, session_cookie
from tests.factories import make_proposal
from tools.models import Proposal


@pytest.fixture
def browser_for() -> Callable[[Customer | Any], Client]:
    """browser_for(alice) → a Client signed in as that customer's (or staff) user."""

    def make(who: Any, **kwargs: Any) -> Client:
        client = Client(**kwargs)
        client.force_login(getattr(who, "user", who))
        return client

    return make


@pytest.fixture
def block_proposal(alice_conversation: Conversation) -> Proposal:
    return make_proposal(alice_conversation, card="4242")


Connect = Callable[..., Awaitable[tuple[WebsocketCommunicator, bool]]]


@pytest.fixture
def connect() -> Connect:
    """await connect(conversation, user=alice.user, origin=ORIGIN) → (communicator, connected),
    through config.asgi.application: origin check, session auth and routing included."""
    from config.asgi import application

    async def open_socket(
        conversation: Conversation, *, user: Any = None, origin: str | None = ORIGIN, lang: str = "en"
    ) -> tuple[WebsocketCommunicator, bool]:
        headers = [(b"host", b"127.0.0.1")]
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        if user is not None:
            cookie = await database_sync_to_async(session_cookie)(user)
            headers.append((b"cookie", cookie.encode()))
        communicator = WebsocketCommunicator(
            application, f"/ws/chat/{conversation.public_id}/?lang={lang}", headers=headers
        )
        connected, _ = await communicator.connect(timeout=5)
        return communicator, connected

    return open_socket


@pytest.fixture
def bound(settings: Any) -> Any:
    """Sets this worker's bound on turns in flight (BANKBOT_MAX_TURNS_PER_WORKER)."""

    def set_bound(size: int) -> None:
        settings.BANKBOT_MAX_TURNS_PER_WORKER = size
        turns.reset_for_tests()

    yield set_bound
    turns.reset_for_tests()
