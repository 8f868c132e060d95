"""English and Russian: a language switch posting to set_language."""

from __future__ import annotations

import pytest

from tests.chat.helpers import frame, receive_until

pytestmark = pytest.mark.django_db


def test_it_offers_a_language_switch(client):
    html = client.get("/login/").content.decode()
    assert 'action="/i18n/setlang/"' in html
    assert 'name="language" value="ru"' in html and 'name="language" value="en"' in html


def test_it_switches_the_interface_to_russian(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    response = client.post(
        "/i18n/setlang/", {"language": "ru", "next": f"/c/{alice_conversation.public_id}/"}
    )
    assert response.status_code == 302
    html = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert '<html lang="ru">' in html
    assert "Отправить" in html and "Ваши диалоги" in html
    assert f"/ws/chat/{alice_conversation.public_id}/?lang=ru" in html


def test_it_shows_the_sign_in_page_in_russian(client):
    client.post("/i18n/setlang/", {"language": "ru", "next": "/login/"})
    assert "Вход в BankBot" in client.get("/login/").content.decode()


def test_a_button_writes_its_message_in_the_pages_language(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    client.post(
        "/messages/",
        {"conversation": str(alice_conversation.public_id), "operation": "raise_dispute", "target": "T-1001"},
    )
    assert alice_conversation.messages.filter(role="customer").get().text == "Оспорить T-1001"


@pytest.mark.django_db(transaction=True)
async def test_the_socket_answers_in_the_pages_language(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user, lang="ru")
    await communicator.send_to(text_data=frame(operation="block_card", target="4242"))
    fragments = await receive_until(communicator, 'data-state="done"')
    assert "Заблокировать карту •••• 4242" in fragments[0]
    assert any("Подтвердите действие" in f for f in fragments)
    await communicator.disconnect()
