"""The offline model does not answer a request for a person with the list of what it
can do. The chat answers one itself, before any model (tests/support/test_turns.py); the
lab and the benchmarks play turns through the model, so it is asked here the same way."""

from __future__ import annotations

import pytest
from django.utils import translation

from bankbot.agent import run_turn
from bankbot.chat import message_customer_add


@pytest.mark.parametrize(
    ("words", "lang", "says"),
    [
        ("Can I talk to a human?", "en", "Talk to a specialist"),
        ("позовите оператора", "ru", "Поговорить со специалистом"),
    ],
)
def test_a_request_for_a_person_is_not_answered_with_the_capability_list(
    alice_conversation, monkeypatch, words, lang, says
):
    monkeypatch.setattr("bankbot.person_request.reason_in", lambda text: None)  # straight to the model
    message, _ = message_customer_add(conversation=alice_conversation, text=words)
    with translation.override(lang):
        answer = run_turn(
            user=alice_conversation.customer.user, conversation=alice_conversation, customer_message=message
        )
    assert says in answer.text
    assert "block a card" not in answer.text and "заблокировать карту" not in answer.text
