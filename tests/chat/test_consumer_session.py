"""An open chat socket serves its session only while the session lasts: signing out,
a password change or a deactivated login closes the customer's sockets at once, and
every frame is checked against the session as it is now, so a socket the news did not
reach still serves nothing (G1)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client

from bankbot.models import Conversation, Message
from tests.chat.helpers import ORIGIN, frame, receive_until

pytestmark = pytest.mark.django_db(transaction=True)

ENDED = "Your session has ended"


async def signed_in(user: Any) -> Client:
    client = Client()
    await database_sync_to_async(client.force_login)(user)
    return client


async def open_socket(client: Client, conversation: Conversation, lang: str = "en") -> WebsocketCommunicator:
    """A socket of the browser ``client`` is: the same session cookie."""
    from config.asgi import application

    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    communicator = WebsocketCommunicator(
        application,
        f"/ws/chat/{conversation.public_id}/?lang={lang}",
        headers=[(b"host", b"127.0.0.1"), (b"origin", ORIGIN.encode()), (b"cookie", cookie.encode())],
    )
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def assert_ended(communicator: WebsocketCommunicator) -> None:
    """Told, in a notice, and closed: no reconnecting into a session that is gone."""
    notice = await communicator.receive_from(timeout=5)
    assert ENDED in notice and 'id="notices"' in notice
    closed = await communicator.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"


def customer_messages(conversation: Conversation) -> int:
    return Message.objects.filter(conversation=conversation, role="customer").count()


async def test_signing_out_closes_the_sessions_socket(alice, alice_conversation):
    browser = await signed_in(alice.user)
    communicator = await open_socket(browser, alice_conversation)
    await sync_to_async(browser.post)("/logout/")
    await assert_ended(communicator)


async def test_signing_out_leaves_the_customers_other_sessions_open(alice, alice_conversation):
    laptop, phone = await signed_in(alice.user), await signed_in(alice.user)
    on_laptop = await open_socket(laptop, alice_conversation)
    on_phone = await open_socket(phone, alice_conversation)
    await sync_to_async(laptop.post)("/logout/")
    await assert_ended(on_laptop)
    await on_phone.send_to(text_data=frame(text="Hello", client_message_id="phone-1"))
    await receive_until(on_phone, 'data-state="done"')  # the phone's session goes on
    await on_phone.disconnect()


async def test_a_password_change_closes_the_customers_sockets(alice, alice_conversation):
    communicator = await open_socket(await signed_in(alice.user), alice_conversation)

    def change_password() -> None:
        user = get_user_model().objects.get(pk=alice.user_id)
        user.set_password("a-new-password-2026")
        user.save()

    await database_sync_to_async(change_password)()
    await assert_ended(communicator)


async def test_deactivating_the_login_closes_the_customers_sockets(alice, alice_conversation):
    communicator = await open_socket(await signed_in(alice.user), alice_conversation)

    def deactivate() -> None:
        user = get_user_model().objects.get(pk=alice.user_id)
        user.is_active = False
        user.save()

    await database_sync_to_async(deactivate)()
    await assert_ended(communicator)


@pytest.mark.parametrize("end", ["session_deleted", "deactivated_by_update"])
async def test_a_frame_from_an_ended_session_is_not_served(alice, alice_conversation, end):
    # Ended without a word to the socket (a session store purged, a bulk update): the
    # next frame finds it out, and neither a read nor a confirm card comes of it.
    browser = await signed_in(alice.user)
    communicator = await open_socket(browser, alice_conversation)
    key = browser.cookies[settings.SESSION_COOKIE_NAME].value

    def end_quietly() -> None:
        if end == "session_deleted":
            Session.objects.filter(session_key=key).delete()
        else:
            get_user_model().objects.filter(pk=alice.user_id).update(is_active=False)

    await database_sync_to_async(end_quietly)()
    await communicator.send_to(text_data=frame(text="Show my balance", client_message_id="r-1"))
    await assert_ended(communicator)
    await communicator.send_to(text_data=frame(text="Block card 4242", client_message_id="w-1"))
    assert await database_sync_to_async(customer_messages)(alice_conversation) == 0


async def test_a_russian_page_is_told_in_russian(alice, alice_conversation):
    browser = await signed_in(alice.user)
    communicator = await open_socket(browser, alice_conversation, lang="ru")
    await sync_to_async(browser.post)("/logout/")
    notice = await communicator.receive_from(timeout=5)
    assert "Ваш сеанс завершён" in notice and ENDED not in notice
