"""A chat socket opens only from a page of this site: its Origin must match the
socket's own scheme, host and port, or be one of CSRF_TRUSTED_ORIGINS — a page on
another port of the same host, or the same host over another scheme, is another
site (config/websocket_origin.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.chat.helpers import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def opens(
    conversation,
    user,
    *,
    host: str,
    origin: str | None,
    headers: list[tuple[bytes, bytes]] = (),
    scheme: str | None = None,
) -> bool:
    from config.asgi import application

    cookie = await database_sync_to_async(session_cookie)(user)
    sent = [(b"host", host.encode()), (b"cookie", cookie.encode()), *headers]
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    communicator = WebsocketCommunicator(application, f"/ws/chat/{conversation.public_id}/", headers=sent)
    if scheme:
        communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect(timeout=5)
    if connected:
        await communicator.disconnect()
    return connected


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("127.0.0.1", "http://127.0.0.1"),
        ("127.0.0.1", "http://127.0.0.1:80"),
        ("localhost:8000", "http://LOCALHOST:8000"),
    ],
)
async def test_it_accepts_its_own_origin(alice, alice_conversation, host, origin):
    assert await opens(alice_conversation, alice.user, host=host, origin=origin)


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:9000"),  # another port of this host
        ("127.0.0.1:8000", "http://127.0.0.1"),
        ("127.0.0.1:8000", "https://127.0.0.1:8000"),  # another scheme
        ("127.0.0.1", "https://127.0.0.1"),
        ("127.0.0.1:8000", "http://localhost:8000"),  # another allowed host is another site
        ("127.0.0.1:8000", "null"),
        ("127.0.0.1:8000", "http://127.0.0.1:8000/chat"),
        ("evil.example", "http://evil.example"),  # a host that is not allowed
    ],
)
async def test_it_refuses_any_other_origin(alice, alice_conversation, host, origin):
    assert not await opens(alice_conversation, alice.user, host=host, origin=origin)


async def test_it_takes_wss_as_https(alice, alice_conversation):
    assert await opens(
        alice_conversation, alice.user, host="127.0.0.1", scheme="wss", origin="https://127.0.0.1"
    )
    assert not await opens(
        alice_conversation, alice.user, host="127.0.0.1", scheme="wss", origin="http://127.0.0.1"
    )


async def test_it_accepts_a_trusted_origin_behind_a_proxy(settings, alice, alice_conversation):
    settings.ALLOWED_HOSTS = ["bank.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://bank.example", "https://*.staff.example"]
    # TLS ends at the proxy: the socket itself is plain ws.
    assert await opens(alice_conversation, alice.user, host="bank.example", origin="https://bank.example")
    assert await opens(
        alice_conversation, alice.user, host="bank.example", origin="https://desk.staff.example"
    )
    assert not await opens(
        alice_conversation, alice.user, host="bank.example", origin="https://bank.example:8443"
    )
    assert not await opens(
        alice_conversation, alice.user, host="bank.example", origin="https://other.example"
    )
    assert not await opens(
        alice_conversation, alice.user, host="bank.example", origin="http://desk.staff.example"
    )


async def test_it_reads_the_proxys_scheme_only_when_told_to_trust_it(settings, alice, alice_conversation):
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert not await opens(
        alice_conversation, alice.user, host="127.0.0.1", origin="https://127.0.0.1", headers=forwarded
    )
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await opens(
        alice_conversation, alice.user, host="127.0.0.1", origin="https://127.0.0.1", headers=forwarded
    )
