"""Staff's text reaches the customer as any outside text does: escaped, its hidden and
bidirectional control characters shown as markers, marked as from a person — on the
page, live over the customer's own socket in the socket's language, and on staff's page."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from support.services import handoff_take, staff_message
from tests.chat.helpers import HOSTILE
from tests.hidden_text import HIDDEN, assert_shown

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_customers_page_shows_staff_text_escaped_with_its_hidden_characters(
    browser_for, alice, alice_conversation, handoff, aigerim
):
    handoff_take(staff=aigerim, pk=handoff.pk)
    staff_message(staff=aigerim, pk=handoff.pk, text=HOSTILE)
    staff_message(staff=aigerim, pk=handoff.pk, text=HIDDEN)
    page = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=//elsewhere" not in page
    assert_shown(page.split('class="msg msg--assistant msg--staff"')[2])
    assert "Aigerim from support" in page and "a person, not the assistant" in page


def test_staffs_page_shows_the_customers_text_escaped_with_its_hidden_characters(
    browser_for, alice_conversation, handoff, aigerim
):
    from bankbot.chat import message_customer_add

    message_customer_add(conversation=alice_conversation, text=HIDDEN)
    message_customer_add(conversation=alice_conversation, text=HOSTILE)
    page = browser_for(aigerim).get(f"/support/{handoff.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert_shown(page)


@pytest.mark.parametrize(("lang", "name"), [("en", "Aigerim from support"), ("ru", "Aigerim из поддержки")])
async def test_a_staff_message_reaches_the_customers_open_socket_escaped_in_its_language(
    connect, alice, alice_conversation, handoff, aigerim, lang, name
):
    tab, connected = await connect(alice_conversation, user=alice.user, lang=lang)
    assert connected
    await database_sync_to_async(handoff_take)(staff=aigerim, pk=handoff.pk)
    joined = await tab.receive_from(timeout=5)
    assert "Aigerim" in joined and 'hx-swap-oob="beforeend:#messages"' in joined
    await database_sync_to_async(staff_message)(staff=aigerim, pk=handoff.pk, text=HOSTILE)
    pushed = await tab.receive_from(timeout=5)
    assert name in pushed and "msg--staff" in pushed
    assert "<script>" not in pushed and "&lt;script&gt;" in pushed
    await tab.disconnect()


async def test_another_customers_socket_hears_nothing(
    connect, bob, bob_conversation, alice_conversation, handoff, aigerim
):
    bobs, connected = await connect(bob_conversation, user=bob.user)
    assert connected
    await database_sync_to_async(handoff_take)(staff=aigerim, pk=handoff.pk)
    await database_sync_to_async(staff_message)(staff=aigerim, pk=handoff.pk, text="For Alice only")
    assert await bobs.receive_nothing(timeout=0.3)
    await bobs.disconnect()


async def test_a_message_on_the_customers_socket_while_held_goes_to_no_model(
    connect, alice, alice_conversation, handoff, aigerim, settings
):
    from bankbot.models import Message
    from tests.chat.helpers import frame, receive_until

    await database_sync_to_async(handoff_take)(staff=aigerim, pk=handoff.pk)
    tab, _ = await connect(alice_conversation, user=alice.user)
    await tab.send_to(text_data=frame(text="Is my card safe?", client_message_id="c-1"))
    fragments = await receive_until(tab, "Sent to Aigerim from support.")
    assert any("Is my card safe?" in fragment for fragment in fragments)
    roles = await database_sync_to_async(lambda: list(Message.objects.values_list("role", flat=True)))()
    assert "assistant" not in roles and roles.count("customer") == 1
    await tab.disconnect()


async def socket_rendered_at(alice, conversation, rendered: int):
    """A socket of a page rendered at ``rendered`` (Unix seconds), as the page opens it."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.chat.helpers import ORIGIN, session_cookie

    cookie = await database_sync_to_async(session_cookie)(alice.user)
    headers = [(b"host", b"127.0.0.1"), (b"origin", ORIGIN.encode()), (b"cookie", cookie.encode())]
    tab = WebsocketCommunicator(
        application, f"/ws/chat/{conversation.public_id}/?lang=en&rendered={rendered}", headers=headers
    )
    connected, _ = await tab.connect(timeout=5)
    assert connected
    return tab


async def test_a_socket_back_after_a_drop_is_sent_the_staff_messages_it_missed(
    alice, alice_conversation, handoff, aigerim
):
    from django.utils import timezone

    rendered = int(timezone.now().timestamp()) - 1  # the page, before the socket dropped
    await database_sync_to_async(handoff_take)(staff=aigerim, pk=handoff.pk)
    await database_sync_to_async(staff_message)(staff=aigerim, pk=handoff.pk, text="Sent while you were away")
    tab = await socket_rendered_at(alice, alice_conversation, rendered)
    missed = await tab.receive_from(timeout=5)
    assert "Aigerim from support has joined" in missed and "Sent while you were away" in missed
    assert "data-person" in missed  # app.js drops one the page shows already
    await tab.disconnect()

    later = await socket_rendered_at(alice, alice_conversation, int(timezone.now().timestamp()) + 1)
    assert await later.receive_nothing(timeout=0.3)  # a page rendered since shows them itself
    await later.disconnect()
