"""A customer may send at most RATE_LIMIT_MESSAGES a minute, counted from stored
messages (so the limit holds across workers and reconnects)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from bankbot.chat import RATE_LIMIT_MESSAGES
from bankbot.models import Conversation, Message
from tests.chat.helpers import frame, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def fill(customer, *, age: timedelta = timedelta(0)) -> None:
    """RATE_LIMIT_MESSAGES earlier messages, spread over other conversations too."""
    other = Conversation.objects.create(customer=customer)
    for n in range(RATE_LIMIT_MESSAGES):
        message = Message.objects.create(conversation=other, role="customer", text=f"m{n}")
        Message.objects.filter(pk=message.pk).update(created_at=timezone.now() - age)


def customer_messages(conversation) -> int:
    return conversation.messages.filter(role="customer").count()


async def test_it_refuses_a_message_over_the_limit(connect, alice, alice_conversation):
    await database_sync_to_async(fill)(alice)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="One more", client_message_id="c-11"))
    fragment = await communicator.receive_from(timeout=5)
    assert "in the last minute" in fragment and 'id="notices"' in fragment
    assert await database_sync_to_async(customer_messages)(alice_conversation) == 0
    await communicator.disconnect()


async def test_it_counts_only_the_last_minute(connect, alice, alice_conversation):
    await database_sync_to_async(fill)(alice, age=timedelta(minutes=2))
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(communicator, 'data-state="done"')
    assert await database_sync_to_async(customer_messages)(alice_conversation) == 1
    await communicator.disconnect()


async def test_it_counts_each_customer_separately(connect, alice, bob, bob_conversation):
    await database_sync_to_async(fill)(alice)
    communicator, _ = await connect(bob_conversation, user=bob.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(communicator, 'data-state="done"')
    assert await database_sync_to_async(customer_messages)(bob_conversation) == 1
    await communicator.disconnect()
