"""Suggestion chips after answers, not only on the welcome (customer issue, point 10): one
set, under the latest answer, in the page's language; a chip sends only words the
customer could have typed."""

from __future__ import annotations

import re
import uuid

import pytest

from bankbot.agent import TurnEvent
from bankbot.fragments import render_event, timeline
from bankbot.models import Message
from tests.chat.html_checks import tags

pytestmark = pytest.mark.django_db

CHIPS = {
    "en": [
        "Show this month's statement",
        "Show last month's statement",
        "I want to dispute a payment",
        "I want to block my card",
    ],
    "ru": [
        "Покажи выписку за этот месяц",
        "Покажи выписку за прошлый месяц",
        "Хочу оспорить платёж",
        "Хочу заблокировать карту",
    ],
}


def page_in(client, conversation, language: str = "en") -> str:
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    return client.get(f"/c/{conversation.public_id}/").content.decode()


def send(client, conversation, text: str) -> None:
    client.post(
        "/messages/",
        {"conversation": str(conversation.public_id), "text": text, "client_message_id": uuid.uuid4().hex},
    )


def articles(html: str) -> list[str]:
    """The timeline's items, in order (the welcome first)."""
    log = html[html.index('id="messages"') : html.index('id="composer"')]
    return re.split(r"(?=<article )", log)[1:]


def chips_in(html: str) -> list[str]:
    return [
        attrs.get("value") or ""
        for tag, attrs in tags(html)
        if tag == "input" and attrs.get("name") == "text" and attrs.get("type") == "hidden"
    ]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_welcome_has_the_chips_until_the_customer_writes(
    browser_for, alice, alice_conversation, language
):
    client = browser_for(alice)

    html = page_in(client, alice_conversation, language)

    assert chips_in(articles(html)[0]) == CHIPS[language]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_chips_follow_the_latest_answer_only(browser_for, alice, alice_conversation, language):
    client = browser_for(alice)
    page_in(client, alice_conversation, language)
    send(client, alice_conversation, "list my cards")
    send(client, alice_conversation, "what is my balance")

    items = articles(page_in(client, alice_conversation, language))

    assert [chips_in(item) for item in items] == [[], [], [], [], CHIPS[language]]
    assert "msg--assistant" in items[-1]


def test_no_chips_while_the_latest_message_waits_for_its_answer(alice_conversation):
    Message.objects.create(conversation=alice_conversation, role="customer", text="list my cards")
    Message.objects.create(conversation=alice_conversation, role="assistant", text="You have two cards.")
    Message.objects.create(conversation=alice_conversation, role="customer", text="and my balance?")

    assert not [item for item in timeline(alice_conversation) if item.get("suggest")]


def test_a_failed_answer_has_no_chips(alice_conversation):
    Message.objects.create(conversation=alice_conversation, role="customer", text="list my cards")
    Message.objects.create(
        conversation=alice_conversation,
        role="assistant",
        text="The assistant is unavailable.",
        payload={"error": "model_unavailable", "retryable": True},
    )

    items = timeline(alice_conversation)

    assert items[-1]["failed"] and not items[-1].get("suggest")


def test_the_live_answer_brings_the_chips_under_its_tables(alice_conversation):
    final = TurnEvent(kind=TurnEvent.Kind.FINAL, text="Here are your cards.")

    html = render_event(final, turn="abc123", conversation=alice_conversation)

    assert 'hx-swap-oob="afterend:#turn-abc123-extras"' in html
    assert chips_in(html) == CHIPS["en"]
    failed = TurnEvent(kind=TurnEvent.Kind.ERROR, text="Something went wrong.")
    assert chips_in(render_event(failed, turn="abc123", conversation=alice_conversation)) == []


def test_a_chip_sends_only_words(browser_for, alice, alice_conversation):
    """No operation, no target: what the customer could have typed, which the harness
    judges like any typed message."""
    html = page_in(browser_for(alice), alice_conversation)
    chip_forms = re.findall(r'<form[^>]*class="suggestion".*?</form>', html, re.S)

    assert len(chip_forms) == 4
    for form in chip_forms:
        names = {attrs.get("name") for tag, attrs in tags(form) if tag == "input"}
        assert names <= {"csrfmiddlewaretoken", "conversation", "client_message_id", "text"}
