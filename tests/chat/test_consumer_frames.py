"""Bad frames get an error fragment for that socket only, and nothing is stored."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from bankbot.chat_input import MAX_FRAME_BYTES
from bankbot.models import Message
from tests.chat.helpers import frame, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def stored() -> int:
    return Message.objects.count()


async def assert_refused(
    communicator, data: str | None = None, bytes_data: bytes | None = None, says: str = "could not be read"
) -> None:
    if bytes_data is not None:
        await communicator.send_to(bytes_data=bytes_data)
    else:
        await communicator.send_to(text_data=data)
    fragment = await communicator.receive_from(timeout=5)
    assert 'id="notices"' in fragment and 'hx-swap-oob="innerHTML"' in fragment
    assert says in fragment
    assert await database_sync_to_async(stored)() == 0


async def test_it_refuses_an_oversized_frame(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    big = frame(text="x" * MAX_FRAME_BYTES, client_message_id="a1")
    await assert_refused(communicator, big, says="too large")
    await communicator.disconnect()


@pytest.mark.parametrize(
    "data",
    [
        "not json",
        json.dumps(["a", "list"]),
        json.dumps({"text": 42}),
        json.dumps({"text": "hi", "client_message_id": {"nested": 1}}),
        json.dumps({"operation": "transfer_money", "target": "T-1001"}),
        json.dumps({"operation": "raise_dispute", "target": "DROP TABLE"}),
        json.dumps({"operation": "block_card", "target": "12345"}),
        json.dumps({"action": "delete_everything"}),
    ],
)
async def test_it_refuses_a_malformed_frame(connect, alice, alice_conversation, data):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await assert_refused(communicator, data)
    await communicator.disconnect()


async def test_it_refuses_a_binary_frame(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await assert_refused(communicator, bytes_data=b"\x00\x01")
    await communicator.disconnect()


async def test_it_refuses_an_empty_message(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await assert_refused(communicator, frame(text="   "), says="empty")
    await communicator.disconnect()


async def test_it_refuses_a_message_over_the_length_limit(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await assert_refused(communicator, frame(text="й" * 2001), says="limit is 2000")
    await communicator.disconnect()


@pytest.mark.parametrize(
    "data",
    [
        '{"text": "block my card \\ud800 now", "client_message_id": "u1"}',  # a lone surrogate, escaped
        '{"text": "hello", "client_message_id": "\\udfff"}',
        json.dumps({"text": "broken \ufffd text", "client_message_id": "u2"}),
        "\ud800",  # a lone surrogate as the frame itself
    ],
)
async def test_it_refuses_unreadable_text_and_stays_open(connect, alice, alice_conversation, data):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await assert_refused(communicator, data, says="could not be read (it shows as �)")
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="after"))
    await receive_until(communicator, 'data-state="done"')  # the socket still answers
    await communicator.disconnect()


@pytest.mark.parametrize(
    "data",
    [
        "[" * 6000,  # about 6 KB of brackets: under the size limit, far past any form's depth
        '{"text": "hi", "HEADERS": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"a": ' * 1100 + "1" + "}" * 1100,  # 7.7 KB of objects in objects
    ],
)
async def test_it_refuses_a_deeply_nested_frame_and_stays_open(connect, alice, alice_conversation, data):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await assert_refused(communicator, data)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="after"))
    await receive_until(communicator, 'data-state="done"')  # the socket still answers
    await communicator.disconnect()


async def test_brackets_the_customer_types_are_text_not_nesting(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    text = 'What is "[[[[{{{{" \\" [[[[[[[[[[ in my statement?'
    await communicator.send_to(text_data=frame(text=text, client_message_id="brackets"))
    fragments = await receive_until(communicator, 'data-state="done"')
    assert "could not be read" not in "".join(fragments)
    await communicator.disconnect()
