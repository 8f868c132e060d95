"""The offline model's first move for each way a customer may phrase a request.

Every phrasing goes through the real openai SDK (create and stream) against the
harness's strict tool schemas; the conversation's today is 2026-11-29.
"""

from __future__ import annotations

import json
from datetime import date

import httpx2
import pytest

from llm import ModelConfig, make_client
from llm.offline import OfflineModel
from tests.llm.offline_chat import GUARDED_TOOLS, NAIVE_TOOLS, SYSTEM, Chat

NO_FILTER = {"merchant": None, "amount": None, "month": None}
DEFAULT_REASON = "Customer does not recognise this charge"


def statement_for(month: str) -> tuple[str, dict]:
    return ("get_statement", {"month": month})


def find(merchant: str | None = None, amount: str | None = None, month: str | None = None):
    return ("find_transactions", {"merchant": merchant, "amount": amount, "month": month})


def dispute(reference: str, amount: str, reason: str = DEFAULT_REASON) -> tuple[str, dict]:
    return ("raise_dispute", {"transaction": reference, "amount": amount, "reason": reason})


PHRASINGS: list[tuple[str, tuple[str, dict]]] = [
    # statements, English
    ("Show my statement for October", statement_for("2026-10")),
    ("Oct 2026", statement_for("2026-10")),
    ("statement for last month", statement_for("2026-10")),
    ("what happened this month?", statement_for("2026-11")),
    ("2026-10", statement_for("2026-10")),
    ("transactions for 10/2026", statement_for("2026-10")),
    ("Can I see my September statement?", statement_for("2026-09")),
    # A month without a year is the latest one not in the future.
    ("December", statement_for("2025-12")),
    ("statement for May", statement_for("2026-05")),
    # "May I" is a verb, not the month: no month named, so the current one.
    ("May I see my statement?", statement_for("2026-11")),
    ("show me my transactions", statement_for("2026-11")),
    ("statement for the month before last", statement_for("2026-09")),
    # totals, English
    ("How much did I spend in October?", statement_for("2026-10")),
    ("What was my total last month?", statement_for("2026-10")),
    ("total spending for Sep 2026", statement_for("2026-09")),
    # blocking, English
    ("Block my card 4242", ("block_card", {"card": "4242"})),
    ("freeze card ending 1234", ("block_card", {"card": "1234"})),
    ("please block the card •••• 5505", ("block_card", {"card": "5505"})),
    ("I lost my card", ("list_cards", {})),
    ("My card was stolen, please block it", ("list_cards", {})),
    # disputes, English
    ("Dispute the Magnum charge", find(merchant="Magnum")),
    ("I don't recognise the Magnum charge, it wasn't me", find(merchant="Magnum")),
    ("dispute the charge from 'Yandex Go'", find(merchant="Yandex Go")),
    ("I didn't make the 15000 payment on October 3", find(amount="15000.00", month="2026-10")),
    ("dispute T-10452", find()),
    ("dispute T-10452 for 5000", dispute("T-10452", "5000.00")),
    (
        "I don't recognise the 2500.50 KZT payment at Coffee Boom",
        find(merchant="Coffee Boom", amount="2500.50"),
    ),
    ("Please dispute the Wolt order from September", find(merchant="Wolt", month="2026-09")),
    (
        "dispute T-10452 for 15,000 because the shop charged me twice",
        dispute("T-10452", "15000.00", "The shop charged me twice"),
    ),
    # statements, Russian
    ("выписка за октябрь", statement_for("2026-10")),
    ("покажи выписку за прошлый месяц", statement_for("2026-10")),
    ("за сентябрь 2026", statement_for("2026-09")),
    ("операции в этом месяце", statement_for("2026-11")),
    ("покажи операции за 10.2026", statement_for("2026-10")),
    ("выписка за декабрь", statement_for("2025-12")),
    ("что было в марте?", statement_for("2026-03")),
    ("выписку за позапрошлый месяц, пожалуйста", statement_for("2026-09")),
    # totals, Russian
    ("сколько я потратил в октябре", statement_for("2026-10")),
    ("сколько всего ушло за прошлый месяц?", statement_for("2026-10")),
    ("итого за сентябрь", statement_for("2026-09")),
    # blocking, Russian
    ("заблокируй карту 4242", ("block_card", {"card": "4242"})),
    ("блокируй мою карту", ("list_cards", {})),
    ("я потеряла карту", ("list_cards", {})),
    ("заморозь карту, которая заканчивается на 5505", ("block_card", {"card": "5505"})),
    ("у меня украли карту 1234, заблокируйте", ("block_card", {"card": "1234"})),
    # disputes, Russian
    ("оспорить платеж в Magnum", find(merchant="Magnum")),
    ("оспорь платёж Yandex Go на 15000 KZT", find(merchant="Yandex Go", amount="15000.00")),
    ("оспорь списание 15000", find(amount="15000.00")),
    # "2000.10" is money, not October 2000.
    ("оспорь списание 2000.10", find(amount="2000.10")),
    ("оспорь T-10452 на 15000", dispute("T-10452", "15000.00")),
    (
        "я не совершал платёж 3 октября на 15 000 тг",
        find(amount="15000.00", month="2026-10"),
    ),
    ("не узнаю списание в «Кофе Бум»", find(merchant="Кофе Бум")),
    # A Cyrillic "Т" in the reference is read as the Latin one.
    ("оспорь Т-10452", find()),
    ("оспорь T-10452, это не я", find()),
    # Asking about a blocked card is not asking to block one: the cards, with their status.
    ("почему моя карта заблокирована?", ("list_cards", {})),
]

SMALL_TALK = [
    "hello",
    "help",
    "what can you do?",
    "thanks!",
    "привет",
    "что ты умеешь?",
]


def test_it_covers_enough_phrasings() -> None:
    russian = [text for text, _ in PHRASINGS if any("а" <= ch.lower() <= "я" for ch in text)]
    assert len(PHRASINGS) >= 40
    assert len(russian) >= 15


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
@pytest.mark.parametrize(("text", "expected"), PHRASINGS, ids=[text for text, _ in PHRASINGS])
def test_it_makes_the_expected_first_call(
    careful: Chat, text: str, expected: tuple[str, dict], stream: bool
) -> None:
    calls = careful.calls(careful.turn(text), stream=stream)

    assert calls == [expected]


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
@pytest.mark.parametrize("text", SMALL_TALK)
def test_it_answers_small_talk_without_tools(careful: Chat, text: str, stream: bool) -> None:
    message = careful.reply(careful.turn(text), stream=stream)

    assert message.tool_calls in (None, [])
    assert "block a card" in message.content or "заблокировать карту" in message.content


def test_it_answers_in_russian_when_asked_in_russian(careful: Chat) -> None:
    message = careful.reply(careful.turn("что ты умеешь?"))

    assert "оспорить" in message.content


def test_it_reads_today_from_the_system_prompt(careful: Chat) -> None:
    messages = [
        {"role": "system", "content": "Today is 2025-02-10."},
        {"role": "user", "content": "statement for last month"},
    ]

    assert careful.calls(messages) == [statement_for("2025-01")]


def test_it_falls_back_to_the_date_it_was_given() -> None:
    # No system prompt with a date: the constructor's today decides "last month".
    # Called directly (no SDK) because make_client always uses the real today.
    model = OfflineModel(today=date(2024, 3, 15))
    body = {
        "model": "offline",
        "messages": [{"role": "user", "content": "last month"}],
        "tools": GUARDED_TOOLS,
    }
    request = httpx2.Request("POST", "http://offline.invalid/v1/chat/completions", json=body)

    message = model(request).json()["choices"][0]["message"]

    assert json.loads(message["tool_calls"][0]["function"]["arguments"]) == {"month": "2024-02"}


def test_it_acts_on_the_last_customer_message_only(careful: Chat) -> None:
    messages = [
        SYSTEM,
        {"role": "user", "content": "block my card 4242"},
        {"role": "assistant", "content": "I've prepared this for you."},
        {"role": "user", "content": "выписка за октябрь"},
    ]

    assert careful.calls(messages) == [statement_for("2026-10")]


def test_it_only_calls_tools_that_are_offered() -> None:
    """Without find_transactions, a dispute is looked up in the month's statement."""
    only_statement = [t for t in GUARDED_TOOLS if t["function"]["name"] != "find_transactions"]
    chat = Chat(make_client(ModelConfig()), only_statement)

    calls = chat.calls(chat.turn("dispute the Magnum charge from October"))

    assert calls == [statement_for("2026-10")]


def test_it_says_so_when_no_tool_can_help() -> None:
    chat = Chat(make_client(ModelConfig()), [])

    message = chat.reply(chat.turn("block my card 4242"))

    assert message.tool_calls in (None, [])
    assert "can't do that" in message.content


def test_it_fills_account_id_from_the_customers_words_in_the_naive_schema() -> None:
    chat = Chat(make_client(ModelConfig()), NAIVE_TOOLS)

    calls = chat.calls(chat.turn("show account 12345 for October"))

    assert calls == [("get_statement", {"account_id": "12345", "month": "2026-10"})]


def test_it_leaves_account_id_empty_when_nobody_named_one() -> None:
    chat = Chat(make_client(ModelConfig()), NAIVE_TOOLS)

    calls = chat.calls(chat.turn("выписка за октябрь"))

    assert calls == [("get_statement", {"account_id": "", "month": "2026-10"})]


def test_it_looks_up_the_recent_rows_when_nothing_identifies_the_charge(careful: Chat) -> None:
    """No question without buttons: it looks, proposes its best guess, and the
    harness's candidates bring the buttons (issue 22, point 4)."""
    calls = careful.calls(careful.turn("I want to dispute a charge"))

    assert calls == [("find_transactions", {"merchant": None, "amount": None, "month": None})]
