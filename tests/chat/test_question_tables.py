"""The reads the offline model makes for a customer's questions show under its
answer: spending with each row's Dispute…, the balance, and the disputes with their
status in words and the bank's note escaped — the same live and reloaded."""

from __future__ import annotations

import pytest
from django.utils import translation

from bankbot.fragments import render_event
from bankbot.models import Conversation
from bankbot.templatetags.dispute_words import card_state
from tests.agent.questions_world import make_dana, tell_model_today
from tests.chat.test_fragments import live_extras, reloaded_extras, turn


@pytest.fixture
def conversation(db: None, monkeypatch: pytest.MonkeyPatch) -> Conversation:
    tell_model_today(monkeypatch)
    return Conversation.objects.create(customer=make_dana())


def shown(conversation: Conversation, words: str, language: str = "en") -> str:
    events = turn(conversation, words)
    with translation.override(language):
        return "".join(
            render_event(event, turn="t1", conversation=conversation)
            for event in events
            if event.kind == "tool"
        )


def test_spending_shows_its_rows_with_dispute_buttons(conversation):
    html = shown(conversation, "How much did I spend on taxis in November?")
    assert "Spending" in html and "T-3001" in html and "T-3004" in html
    assert "T-3007" not in html  # October's taxi is not November's
    assert html.count("Dispute…") == 2


def test_charged_twice_shows_both_charges_with_dispute_buttons(conversation):
    html = shown(conversation, "why was I charged twice at Magnum?")
    assert "T-3002" in html and "T-3003" in html and html.count("Dispute…") == 2


def test_the_balance_shows_each_account(conversation):
    assert "Account ending 0777" in shown(conversation, "what is my balance?")
    assert "Счёт, оканчивающийся на 0777" in shown(conversation, "какой у меня баланс?", "ru")


def test_disputes_show_status_in_words_and_the_note_escaped(conversation):
    html = shown(conversation, "show my disputes")
    assert "Your disputes" in html and "D-501" in html and "T-3008" in html
    assert "being reviewed" in html and "rejected" in html
    assert "&lt;b&gt;Sulpak&lt;/b&gt;" in html and "<b>Sulpak</b>" not in html


def test_disputes_read_in_russian(conversation):
    html = shown(conversation, "мои споры", "ru")
    assert "Ваши споры" in html and "Комментарий банка" in html and "отклонён" in html


@pytest.mark.parametrize(
    ("language", "words", "active", "blocked"),
    [
        ("en", "show my cards", "Active", "Blocked"),
        ("ru", "мои карты", "Активна", "Заблокирована"),
    ],
)
def test_each_cards_chip_says_its_state_in_the_words_the_answer_check_writes(
    conversation, language, words, active, blocked
):
    html = shown(conversation, words, language)
    assert f'badge--ok">{active}<' in html and f'badge--muted">{blocked}<' in html
    with translation.override(language):  # one source: the chip and G10's replacement
        assert (str(card_state("active")), str(card_state("blocked"))) == (active, blocked)


@pytest.mark.parametrize("words", ["how much did I spend last week", "what is my balance?", "мои споры"])
def test_a_question_table_is_the_same_live_and_reloaded(conversation, words):
    live = live_extras(turn(conversation, words))
    assert len(live) == 1 and live[0]["kind"] == "tool"
    assert live == reloaded_extras(conversation)
