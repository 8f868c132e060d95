"""What the chat's tests share besides fixtures: the socket's frames and how to read
them, a session cookie for a user, and the month to ask a statement for."""

from __future__ import annotations

import json
from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from tests.factories import days_ago

ORIGIN = "http://127.0.0.1"
HOSTILE = '<script>alert(1)</script><img src=//elsewhere.example/x.png> hx-get="/admin/"'


def statement_request() -> str:
    """Ask for the month holding T-1001 (posted 5 days ago), whatever today is."""
    from django.utils import timezone

    return f"Show my statement for {timezone.localdate(days_ago(5)):%Y-%m}"


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


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
