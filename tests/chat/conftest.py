"""Fixtures for the chat's pages and socket: signed-in clients, proposals made
through the real harness, and WebSocket connections through the real ASGI stack."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import Customer
from bankbot import turns
from bankbot.models import Conversation
from tools.catalog import CATALOG
from tools.catalog.block_card import BlockCardArgs
from tools.catalog.raise_dispute import RaiseDisputeArgs
from tools.models import Proposal

ORIGIN = "http://127.0.0.1"
HOSTILE = '<script>alert(1)</script><img src=//elsewhere.example/x.png> hx-get="/admin/"'


@pytest.fixture
def browser_for() -> Callable[[Customer | Any], Client]:
    """browser_for(alice) → a Client signed in as that customer's (or staff) user."""

    def make(who: Any, **kwargs: Any) -> Client:
        client = Client(**kwargs)
        client.force_login(getattr(who, "user", who))
        return client

    return make


def make_proposal(
    conversation: Conversation, tool: str = "block_card", sources: list | None = None, **args: str
) -> Proposal:
    """A proposal as the guarded harness stores it (policy is the harness's
    business and tested there; these tests are about the card and its views)."""
    from tools.context import action_context_for
    from tools.proposals import proposal_create
    from tools.provenance import Source

    ctx = action_context_for(conversation.customer.user, conversation)
    spec = CATALOG[tool]
    model = {"block_card": BlockCardArgs, "raise_dispute": RaiseDisputeArgs}[tool]
    return proposal_create(
        ctx, spec, model(**(args or {"card": "4242"})), [Source(**s) for s in sources or []]
    )


@pytest.fixture
def block_proposal(alice_conversation: Conversation) -> Proposal:
    return make_proposal(alice_conversation, card="4242")


def statement_request() -> str:
    """Ask for the month holding T-1001 (posted 5 days ago), whatever today is."""
    from django.utils import timezone

    from tests.conftest import days_ago

    return f"Show my statement for {timezone.localdate(days_ago(5)):%Y-%m}"


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


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


def frame(**fields: Any) -> str:
    """What the htmx ws extension sends for a ws-send form."""
    return json.dumps(
        {**fields, "HEADERS": {"HX-Request": "true", "HX-Trigger": "composer"}}, ensure_ascii=False
    )  # as JSON.stringify does


async def receive_until(communicator: WebsocketCommunicator, marker: str, timeout: float = 10) -> list[str]:
    """Every fragment up to and including the first that contains ``marker``."""
    fragments: list[str] = []
    while True:
        fragment = await communicator.receive_from(timeout=timeout)
        fragments.append(fragment)
        if marker in fragment:
            return fragments


@pytest.fixture
def bound(settings: Any) -> Any:
    """Sets this worker's bound on turns in flight (BANKBOT_MAX_TURNS_PER_WORKER)."""

    def set_bound(size: int) -> None:
        settings.BANKBOT_MAX_TURNS_PER_WORKER = size
        turns.reset_for_tests()

    yield set_bound
    turns.reset_for_tests()
