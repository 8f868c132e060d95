"""What the offline model says, in English and Russian.

Amounts are always passed in exactly as the tool results spelled them: the
harness's output check accepts an amount only if it appears in a tool result.
"""

from __future__ import annotations

from .months import ENGLISH_MONTHS, RUSSIAN_MONTHS
from .understanding import Language

TEXTS: dict[str, dict[Language, str]] = {
    "help": {
        "en": (
            "I can show your statement for a month, tell you how much you spent, "
            "block a card, or open a dispute about a charge. What would you like to do?"
        ),
        "ru": (
            "Я могу показать выписку за месяц, посчитать траты, заблокировать карту "
            "или оспорить списание. Что вы хотите сделать?"
        ),
    },
    "hello": {"en": "Hello! ", "ru": "Здравствуйте! "},
    "prepared": {
        "en": ("I've prepared this for you: {summary}. Please check it and press Confirm if it is right."),
        "ru": ("Я подготовил это для вас: {summary}. Проверьте и нажмите «Подтвердить», если всё верно."),
    },
    "pick_one": {
        "en": "Your words fit more than one, so I have not prepared anything yet. Press the "
              "button next to the one you mean.",
        "ru": "Под ваше описание подходит несколько, поэтому я пока ничего не подготовил. "
              "Нажмите кнопку рядом с нужной.",
    },
    "ask_plainly_raise_dispute": {
        "en": "I have not prepared a dispute. If you want one, press Dispute next to the "
              "transaction, or tell me plainly which one to dispute (for example: dispute T-1001).",
        "ru": "Я не готовил спор. Если он нужен, нажмите «Оспорить» рядом с операцией или "
              "напишите прямо, какую оспорить (например: оспорьте T-1001).",
    },
    "ask_plainly_block_card": {
        "en": "I have not prepared a card block. If you want one, press Block next to the card, "
              "or tell me plainly which card to block (for example: block card 4242).",
        "ru": "Я не готовил блокировку. Если она нужна, нажмите «Заблокировать» рядом с картой "
              "или напишите прямо, какую заблокировать (например: заблокируйте карту 4242).",
    },
    "ask_plainly_unblock_card": {
        "en": "I have not prepared an unblock. If you want one, press Unblock next to a card you "
              "blocked, or tell me plainly which card to unblock (for example: unblock card "
              "4242).",
        "ru": "Я не готовил разблокировку. Если она нужна, нажмите «Разблокировать» рядом с "
              "картой, которую вы заблокировали, или напишите прямо, какую разблокировать "
              "(например: разблокируйте карту 4242).",
    },
    "which_card_unblock": {
        "en": "You blocked several cards: {cards}. Which one should I unblock?",
        "ru": "Вы заблокировали несколько карт: {cards}. Какую разблокировать?",
    },
    "card_digits_unblock": {
        "en": "Which card should I unblock? Please tell me its last four digits.",
        "ru": "Какую карту разблокировать? Напишите последние четыре цифры.",
    },
    "no_own_blocked_cards": {
        "en": "None of your cards is blocked by you. A card the bank blocked is unblocked by "
              "support: please call us or visit a branch.",
        "ru": "Ни одна ваша карта не заблокирована вами. Карту, заблокированную банком, "
              "разблокирует поддержка: позвоните нам или приходите в отделение.",
    },
    "error": {
        "en": "I couldn't do that: {message}",
        "ru": "Не получилось: {message}",
    },
    "statement": {
        "en": "Your statement for {month} has {count}, {total} KZT in total.",
        "ru": "В выписке за {month} {count} на сумму {total} KZT.",
    },
    "statement_empty": {
        "en": "There are no transactions in your statement for {month}.",
        "ru": "За {month} операций нет.",
    },
    "total": {
        "en": "In {month} you spent {total} KZT ({count}).",
        "ru": "В {month_in} вы потратили {total} KZT ({count}).",
    },
    "account_prefix": {"en": "Account {account}: ", "ru": "Счёт {account}: "},
    "which_card": {
        "en": "You have several active cards: {cards}. Which one should I block?",
        "ru": "У вас несколько активных карт: {cards}. Какую заблокировать?",
    },
    "card_digits": {
        "en": "Which card should I block? Please tell me its last four digits.",
        "ru": "Какую карту заблокировать? Напишите последние четыре цифры.",
    },
    "no_active_cards": {
        "en": "You have no active cards to block.",
        "ru": "У вас нет активных карт, которые можно заблокировать.",
    },
    "which_transaction": {
        "en": "I found several matching transactions: {rows}. Which one should I dispute?",
        "ru": "Нашлось несколько подходящих операций: {rows}. Какую оспорить?",
    },
    "describe_transaction": {
        "en": (
            "Which transaction would you like to dispute? Tell me the merchant, "
            "the amount or the date, or the reference from your statement."
        ),
        "ru": (
            "Какую операцию вы хотите оспорить? Назовите магазин, сумму или дату, "
            "либо номер операции из выписки."
        ),
    },
    "no_match": {
        "en": "I couldn't find a transaction matching your description.",
        "ru": "Я не нашёл операцию, подходящую под описание.",
    },
    "no_reference": {
        "en": "I couldn't find transaction {reference}.",
        "ru": "Я не нашёл операцию {reference}.",
    },
    "unavailable": {
        "en": "Sorry, I can't do that in this chat.",
        "ru": "Извините, в этом чате я не могу это сделать.",
    },
}


def say(key: str, language: Language, **values: str) -> str:
    return TEXTS[key][language].format(**values)


def month_label(month: str, language: Language, *, case: str = "nominative") -> str:
    """'2026-10' -> 'October 2026' / 'октябрь 2026' / (prepositional) 'октябре 2026'."""
    try:
        year, number = (int(part) for part in month.split("-")[:2])
        names = ENGLISH_MONTHS[number] if language == "en" else RUSSIAN_MONTHS[number]
    except (KeyError, ValueError):
        return month
    if language == "en":
        return f"{names[0].capitalize()} {year}"
    return f"{names[2] if case == 'prepositional' else names[0]} {year}"


def count_transactions(count: int, language: Language) -> str:
    if language == "en":
        return f"{count} transaction" + ("" if count == 1 else "s")
    # Russian plural: 1 операция, 2–4 операции, 5–20 операций, 21 операция…
    if count % 10 == 1 and count % 100 != 11:
        word = "операция"
    elif 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        word = "операции"
    else:
        word = "операций"
    return f"{count} {word}"
