"""The channel layer (Redis) down: the socket is told so, directly, and closed —
never a refused handshake, never a hang. A turn already running still finishes,
is stored, and reaches the socket that asked."""

from __future__ import annotations

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from bankbot.fragments import group_name
from bankbot.outage import TRY_AGAIN_LATER_CLOSE_CODE
from tests.chat.helpers import frame, receive_until

pytestmark = pytest.mark.django_db(transaction=True)

# TimeoutError is asyncio.TimeoutError (what asyncio.timeout raises) since Python 3.11.
FAILURES = [
    ConnectionError("Redis refused"),
    TimeoutError(),
    redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379"),
    redis.exceptions.TimeoutError("Timeout reading from socket"),
]
FAILURE_IDS = ["ConnectionError", "TimeoutError", "redis-ConnectionError", "redis-TimeoutError"]
LIVE_CHAT_DOWN = "Live chat is not available right now."


@pytest.fixture
def layer_class() -> type:
    """The layer the consumer uses: in-memory here, channels-redis when REDIS_URL is set."""
    return type(get_channel_layer())


def failing(error: Exception):
    async def fail(self, *args, **kwargs):
        raise error

    return fail


async def assert_told_and_closed(communicator, says: str = LIVE_CHAT_DOWN) -> None:
    notice = await communicator.receive_from(timeout=5)
    assert '<div id="notices" hx-swap-oob="innerHTML">' in notice and says in notice
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER_CLOSE_CODE}


def roles(conversation) -> list[str]:
    return list(conversation.messages.values_list("role", flat=True))


@pytest.mark.parametrize("error", FAILURES, ids=FAILURE_IDS)
async def test_it_accepts_tells_and_closes_when_group_add_fails(
    connect, alice, alice_conversation, monkeypatch, layer_class, error
):
    monkeypatch.setattr(layer_class, "group_add", failing(error))
    communicator, connected = await connect(alice_conversation, user=alice.user)
    assert connected  # not a refused handshake the page cannot explain
    await assert_told_and_closed(communicator)
    await communicator.disconnect()


async def test_it_says_so_in_the_pages_language(connect, alice, alice_conversation, monkeypatch, layer_class):
    monkeypatch.setattr(layer_class, "group_add", failing(ConnectionError()))
    communicator, _ = await connect(alice_conversation, user=alice.user, lang="ru")
    await assert_told_and_closed(communicator, says="Чат сейчас недоступен.")
    await communicator.disconnect()


async def test_it_still_refuses_a_stranger_when_the_layer_is_down(
    connect, bob, alice_conversation, monkeypatch, layer_class
):
    monkeypatch.setattr(layer_class, "group_add", failing(ConnectionError()))
    communicator, connected = await connect(alice_conversation, user=bob.user)
    assert not connected


async def test_it_tells_and_closes_when_listening_to_the_group_fails(
    connect, alice, alice_conversation, monkeypatch, layer_class
):
    monkeypatch.setattr(layer_class, "receive", failing(ConnectionError()))
    communicator, connected = await connect(alice_conversation, user=alice.user)
    assert connected
    await assert_told_and_closed(communicator)
    await communicator.disconnect()


async def test_an_open_socket_is_told_when_the_layer_fails_later(
    connect, alice, alice_conversation, monkeypatch, layer_class
):
    working = layer_class.receive
    redis_up = True

    async def receive(self, channel):
        if not redis_up:
            raise ConnectionError("Redis went away")
        return await working(self, channel)

    monkeypatch.setattr(layer_class, "receive", receive)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    redis_up = False
    # The socket's pending receive returns this; its next one fails.
    await get_channel_layer().group_send(
        group_name(alice_conversation), {"type": "chat.fragment", "html": "<p>before</p>"}
    )
    assert await communicator.receive_from(timeout=5) == "<p>before</p>"
    await assert_told_and_closed(communicator)
    await communicator.disconnect()


@pytest.mark.parametrize("error", FAILURES, ids=FAILURE_IDS)
async def test_a_turn_whose_group_send_fails_is_stored_and_sent_directly(
    connect, alice, alice_conversation, monkeypatch, layer_class, error
):
    monkeypatch.setattr(layer_class, "group_send", failing(error))
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))

    fragments = await receive_until(communicator, 'data-state="done"')

    assert "Hello" in fragments[0] and 'hx-swap-oob="beforeend:#messages"' in fragments[0]
    assert LIVE_CHAT_DOWN in fragments[1]  # after the opening fragment, which clears notices
    closed = await communicator.receive_output(timeout=5)  # once the turn has ended
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER_CLOSE_CODE}
    assert await database_sync_to_async(roles)(alice_conversation) == ["customer", "assistant"]
    await communicator.disconnect()


async def test_the_stored_answer_shows_on_reload(
    connect, alice, alice_conversation, monkeypatch, layer_class
):
    monkeypatch.setattr(layer_class, "group_send", failing(ConnectionError()))
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(communicator, 'data-state="done"')
    await communicator.disconnect()

    def reload() -> tuple[str, str]:
        client = Client()
        client.force_login(alice.user)
        page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
        return page, alice_conversation.messages.get(role="assistant").text

    page, answer = await database_sync_to_async(reload)()
    assert 'data-state="done"' in page and answer.replace("'", "&#x27;") in page


async def test_a_failed_group_discard_does_not_break_the_disconnect(
    connect, alice, alice_conversation, monkeypatch, layer_class
):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    monkeypatch.setattr(layer_class, "group_discard", failing(ConnectionError()))
    await communicator.disconnect()  # raises if the consumer did


@pytest.fixture
def held_turn(monkeypatch):
    """The turn's thread waits for release.set() before the agent runs."""
    import threading

    from bankbot import turn_task

    release = threading.Event()
    real_run = turn_task.run_turn_in_thread

    def run(**kwargs):
        release.wait(10)
        return real_run(**kwargs)

    monkeypatch.setattr(turn_task, "run_turn_in_thread", run)
    yield release
    release.set()


def deaf_after_first_message(monkeypatch, layer_class) -> None:
    """Listening to the group works once, then fails: Redis went away mid-turn."""
    working, heard = layer_class.receive, []

    async def receive(self, channel):
        if heard:
            raise ConnectionError("Redis went away")
        heard.append(await working(self, channel))
        return heard[-1]

    monkeypatch.setattr(layer_class, "receive", receive)


async def test_a_socket_that_stops_hearing_the_group_mid_turn_gets_the_rest_directly(
    connect, alice, alice_conversation, monkeypatch, layer_class, held_turn
):
    deaf_after_first_message(monkeypatch, layer_class)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    opening = await communicator.receive_from(timeout=5)  # through the group
    assert 'hx-swap-oob="beforeend:#messages"' in opening
    assert LIVE_CHAT_DOWN in await communicator.receive_from(timeout=5)

    held_turn.set()
    rest = await receive_until(communicator, 'data-state="done"')  # sent directly
    assert not any(LIVE_CHAT_DOWN in fragment for fragment in rest)  # told once
    closed = await communicator.receive_output(timeout=5)  # once the turn has ended
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER_CLOSE_CODE}
    await communicator.disconnect()


async def test_a_message_sent_after_the_layer_failed_is_refused_not_stored(
    connect, alice, alice_conversation, monkeypatch, layer_class, held_turn
):
    deaf_after_first_message(monkeypatch, layer_class)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await communicator.receive_from(timeout=5)  # the opening
    assert LIVE_CHAT_DOWN in await communicator.receive_from(timeout=5)

    # The socket closes once its turn ends: a new message is not taken here.
    await communicator.send_to(text_data=frame(text="Again", client_message_id="c-2"))
    assert LIVE_CHAT_DOWN in await communicator.receive_from(timeout=5)
    held_turn.set()
    await receive_until(communicator, 'data-state="done"')
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER_CLOSE_CODE}
    assert await database_sync_to_async(roles)(alice_conversation) == ["customer", "assistant"]
    await communicator.disconnect()
