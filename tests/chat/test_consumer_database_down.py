"""The database down while the socket is open: a notice that says what happened
to the message, and nothing half-written."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError

from tests.chat.helpers import frame

pytestmark = pytest.mark.django_db(transaction=True)


def unavailable(**kwargs):
    raise OperationalError("server closed the connection unexpectedly")


async def test_a_message_the_database_cannot_store_gets_a_notice(
    connect, alice, alice_conversation, monkeypatch
):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    monkeypatch.setattr("bankbot.message_intake.message_accept", unavailable)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    notice = await communicator.receive_from(timeout=5)
    assert 'id="notices"' in notice and "your message was not saved" in notice
    assert not await database_sync_to_async(alice_conversation.messages.exists)()
    await communicator.disconnect()


async def test_a_retry_the_database_cannot_look_up_gets_a_notice(
    connect, alice, alice_conversation, monkeypatch
):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    monkeypatch.setattr("bankbot.consumers.message_retry_accept", unavailable)
    await communicator.send_to(text_data=frame(action="retry"))
    assert "Nothing was done" in await communicator.receive_from(timeout=5)
    await communicator.disconnect()


def refused(*args, **kwargs):
    raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")


async def test_a_socket_opening_while_the_database_is_down_is_told_so_and_closed_to_retry(
    connect, alice, alice_conversation, monkeypatch
):
    from bankbot.outage import TRY_AGAIN_LATER_CLOSE_CODE

    monkeypatch.setattr("bankbot.consumers.conversation_of_user", refused)
    communicator, connected = await connect(alice_conversation, user=alice.user)
    assert connected  # accepted, so the page hears why, not a failed handshake
    notice = await communicator.receive_from(timeout=5)
    assert 'id="notices"' in notice and "not reachable right now" in notice
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER_CLOSE_CODE}
