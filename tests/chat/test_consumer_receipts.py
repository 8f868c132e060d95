"""Nothing typed is lost: each frame the socket reads gets a receipt naming its
client message id (stream.html#receipt), so the page keeps the customer's text
until it is stored and marks a refused one "not sent", with the reason."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from bankbot.chat import RATE_LIMIT_MESSAGES
from bankbot.chat_input import frame_client_id
from bankbot.models import Conversation, Message
from tests.chat.helpers import frame, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def receipt(fragment: str, client_id: str, state: str) -> bool:
    return (
        'id="composer-receipt"' in fragment
        and f'data-client-id="{client_id}"' in fragment
        and f'data-state="{state}"' in fragment
    )


async def test_a_stored_message_comes_with_an_accepted_receipt(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    fragments = await receive_until(communicator, 'data-state="done"')
    assert receipt(fragments[0], "c-1", "accepted")
    assert sum('id="composer-receipt"' in f for f in fragments) == 1
    await communicator.disconnect()


async def test_a_resent_message_is_accepted_again_without_a_second_answer(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(communicator, 'data-state="done"')
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    fragment = await communicator.receive_from(timeout=5)
    assert receipt(fragment, "c-1", "accepted") and "msg--customer" not in fragment
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("x" * 2001, "Your message is 2001 characters long; the limit is 2000."),
        ("й" * 5000, "too large"),  # 10 kB of UTF-8: past the frame limit
        ("broken \ufffd text", "could not be read"),
        ("   ", "The message is empty."),
    ],
)
async def test_a_refused_message_gets_its_reason_and_id(connect, alice, alice_conversation, text, says):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text=text, client_message_id="c-2"))
    fragment = await communicator.receive_from(timeout=5)
    assert receipt(fragment, "c-2", "refused") and says in fragment
    assert 'id="notices"' in fragment  # a chip or button's refusal is still said at the top
    assert not await database_sync_to_async(Message.objects.exists)()
    await communicator.disconnect()


def fill(customer) -> None:
    other = Conversation.objects.create(customer=customer)
    for n in range(RATE_LIMIT_MESSAGES):
        Message.objects.create(conversation=other, role="customer", text=f"m{n}")


async def test_a_rate_limited_message_is_refused_by_id(connect, alice, alice_conversation):
    await database_sync_to_async(fill)(alice)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="One more", client_message_id="c-3"))
    fragment = await communicator.receive_from(timeout=5)
    assert receipt(fragment, "c-3", "refused") and "in the last minute" in fragment
    await communicator.disconnect()


async def test_a_refusal_in_russian_says_so_in_russian(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user, lang="ru")
    await communicator.send_to(text_data=frame(text="x" * 2001, client_message_id="c-4"))
    fragment = await communicator.receive_from(timeout=5)
    assert receipt(fragment, "c-4", "refused") and "2001" in fragment
    assert "characters long" not in fragment and "символ" in fragment
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("data", "client_id"),
    [
        (json.dumps({"text": "hi", "client_message_id": "abc-123_X"}), "abc-123_X"),
        (json.dumps({"text": "hi", "client_message_id": '"><b>'}), ""),  # never echoed
        (json.dumps({"text": "hi", "client_message_id": 42}), ""),
        (json.dumps({"text": "hi"}), ""),
        ("not json", ""),
        ('{"client_message_id": "a1", "text": "' + "x" * 70_000 + '"}', ""),
        (None, ""),
    ],
)
def test_it_reads_a_frames_client_id_only_when_it_is_plain(data, client_id):
    assert frame_client_id(data) == client_id
