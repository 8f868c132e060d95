"""Who may open a chat socket: a signed-in customer, from this site, on their own conversation."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from bankbot.consumers import ChatConsumer
from lab.roles import trainee_ensure

pytestmark = pytest.mark.django_db(transaction=True)


async def test_it_accepts_the_owner_from_an_allowed_origin(connect, alice, alice_conversation):
    communicator, connected = await connect(alice_conversation, user=alice.user)
    assert connected
    await communicator.disconnect()


async def test_it_refuses_an_anonymous_socket(connect, alice_conversation):
    communicator, connected = await connect(alice_conversation, user=None)
    assert not connected


async def test_it_refuses_another_origin(connect, alice, alice_conversation):
    communicator, connected = await connect(alice_conversation, user=alice.user, origin="http://evil.example")
    assert not connected


async def test_it_refuses_a_socket_without_an_origin(connect, alice, alice_conversation):
    communicator, connected = await connect(alice_conversation, user=alice.user, origin=None)
    assert not connected


async def test_it_refuses_another_customers_conversation(connect, bob, alice_conversation):
    communicator, connected = await connect(alice_conversation, user=bob.user)
    assert not connected


async def test_it_refuses_a_conversation_id_that_is_not_one(alice, alice_conversation):
    # The route's <uuid:…> parses the id; handed text anyway, the socket's lookup
    # (conversation_of_user) parses it, and the socket closes as for anyone else's.
    communicator = WebsocketCommunicator(ChatConsumer.as_asgi(), "/ws/chat/not-a-uuid/")
    communicator.scope.update(user=alice.user, url_route={"args": (), "kwargs": {"public_id": "not-a-uuid"}})
    connected, _ = await communicator.connect(timeout=5)
    assert not connected


async def test_it_refuses_staff_without_a_customer(connect, staff, alice_conversation):
    communicator, connected = await connect(alice_conversation, user=staff)
    assert not connected


async def test_it_refuses_a_trainee(connect, alice_conversation):
    trainee = await sync_to_async(trainee_ensure)(username="tina", password="trainee-pw-123")
    communicator, connected = await connect(alice_conversation, user=trainee)
    assert not connected
