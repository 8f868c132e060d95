"""A Russian customer's whole hand-over reads in Russian: the offer, their place in the
queue, the staff member's name and notes, and the assistant again after."""

from __future__ import annotations

from support.models import Handoff
from support.services import handoff_return, handoff_take, staff_message
from tests.chat.test_one_language import english_in


def test_a_russian_customer_reads_the_hand_over_in_russian(browser_for, alice, alice_conversation, aigerim):
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    conversation = str(alice_conversation.public_id)
    client.post(
        "/messages/", {"conversation": conversation, "text": "позовите оператора", "client_message_id": "r-1"}
    )
    offered = client.get(f"/c/{conversation}/").content.decode()
    assert "Поговорить со специалистом" in offered
    client.post("/support/ask", {"conversation": conversation, "reason": "asked"})
    handoff = Handoff.objects.get()
    assert handoff.language == "ru"
    handoff_take(staff=aigerim, pk=handoff.pk)
    staff_message(staff=aigerim, pk=handoff.pk, text="Здравствуйте! Я проверю вашу карту.")
    client.post("/messages/", {"conversation": conversation, "text": "Спасибо", "client_message_id": "r-2"})
    handoff_return(staff=aigerim, pk=handoff.pk)
    client.post(
        "/messages/", {"conversation": conversation, "text": "покажи мои карты", "client_message_id": "r-3"}
    )
    page = client.get(f"/c/{conversation}/").content.decode()
    for words in (
        "Ваш номер в очереди к специалисту: 1",
        "Aigerim из поддержки",
        "вернул(а) разговор ассистенту",
    ):
        assert words in page
    found = english_in({"chat": page, "offer": offered})
    assert found == [], found
