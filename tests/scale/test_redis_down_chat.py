"""Redis down, through the real channels-redis layer: the chat socket is accepted,
told so in words within seconds, and closed — never a failed handshake, never a
hang — while the plain form post, which needs no channel layer, keeps working."""

from __future__ import annotations

import asyncio
import os
import socket
from urllib.parse import urlparse

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from bankbot.outage import TRY_AGAIN_LATER_CLOSE_CODE
from tests.chat.helpers import ORIGIN, session_cookie
from tests.scale.helpers import DatabaseLink
from tests.scale.test_channel_layer import settings_with

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

LIVE_CHAT_DOWN = "Live chat is not available right now."
# Well above the settings' 3 s connect timeout: what "bounded" means here.
BOUND = 10


@pytest.fixture
def use_redis(settings, monkeypatch):
    """use_redis(url): the chat's channel layer, shaped by settings.py, at that URL
    (channels rebuilds its layers when CHANNEL_LAYERS changes)."""

    def configure(url: str, **host_override: float) -> None:
        layers = settings_with(monkeypatch, REDIS_URL=url).CHANNEL_LAYERS
        config = layers["default"]["CONFIG"]
        config["hosts"] = [{**host, **host_override} for host in config["hosts"]]
        settings.CHANNEL_LAYERS = layers

    return configure


@pytest.fixture
def closed_port() -> str:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def redis_link():
    """The real Redis (REDIS_URL) behind a relay the test can cut."""
    redis = urlparse(os.environ["REDIS_URL"])
    link = DatabaseLink()  # the same cuttable relay, pointed at Redis instead
    link.target = (redis.hostname or "127.0.0.1", redis.port or 6379)
    yield f"redis://127.0.0.1:{link.port}{redis.path or '/0'}", link
    link.cut()


async def open_socket(conversation, user) -> tuple[WebsocketCommunicator, bool]:
    from config.asgi import application

    cookie = await database_sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/chat/{conversation.public_id}/?lang=en",
        headers=[(b"host", b"127.0.0.1"), (b"origin", ORIGIN.encode()), (b"cookie", cookie.encode())],
    )
    connected, _ = await communicator.connect(timeout=BOUND)
    return communicator, connected


async def assert_told_and_closed(communicator: WebsocketCommunicator) -> None:
    notice = await communicator.receive_from(timeout=BOUND)
    assert '<div id="notices" hx-swap-oob="innerHTML">' in notice and LIVE_CHAT_DOWN in notice
    closed = await communicator.receive_output(timeout=BOUND)
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER_CLOSE_CODE}


async def test_a_socket_is_told_at_once_when_redis_is_down(use_redis, closed_port, alice, alice_conversation):
    use_redis(closed_port)
    communicator, connected = await open_socket(alice_conversation, alice.user)

    assert connected
    await assert_told_and_closed(communicator)  # each wait is bounded by BOUND
    await communicator.disconnect()


async def test_a_socket_is_told_when_redis_hangs(use_redis, hung_redis, alice, alice_conversation):
    # The settings' shape with a shorter read timeout, so the test stays quick.
    use_redis(hung_redis, socket_timeout=1)
    communicator, connected = await open_socket(alice_conversation, alice.user)

    assert connected
    await assert_told_and_closed(communicator)  # each wait is bounded by BOUND
    await communicator.disconnect()


async def test_an_open_socket_is_told_when_redis_goes_away(use_redis, redis_link, alice, alice_conversation):
    url, link = redis_link
    use_redis(url)
    communicator, connected = await open_socket(alice_conversation, alice.user)
    assert connected
    assert await communicator.receive_nothing(timeout=0.5)  # a working chat: no notice

    await asyncio.to_thread(link.cut)

    await assert_told_and_closed(communicator)
    await communicator.disconnect()


def test_the_form_post_works_while_redis_is_down(use_redis, closed_port, alice, alice_conversation):
    use_redis(closed_port)
    client = Client()
    client.force_login(alice.user)

    response = client.post(
        "/messages/",
        {"conversation": str(alice_conversation.public_id), "text": "Hello", "client_message_id": "m-1"},
    )

    assert response.status_code == 302
    roles = list(alice_conversation.messages.values_list("role", flat=True))
    assert roles == ["customer", "assistant"]
