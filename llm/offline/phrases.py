"""What the offline model says, in English and Russian.

Amounts are passed in exactly as the tool results spelled them ("15000.00") and
written here the way the customer's language writes them, as the pages do
(accounts/money.py, ``kzt_text``): the answer check reads them back by value.
"""

from __future__ import annotations

from collections.abc import Callable

from accounts.money import kzt_text

from .months import ENGLISH_MONTHS, RUSSIAN_MONTHS
from .understanding import Language

TEXTS: dict[str, dict[Language, str]] = {
    "help": {
        "en": (
            "I can show your statement for a month, your balance and your cards, tell you how "
            "much you spent (at a shop, on taxis, last week…), block a card, open a dispute "
            "about a charge or tell you how your disputes stand. What would you like to do?"
        ),
        "ru": (
            "Я могу показать выписку за месяц, баланс и ваши карты, посчитать траты (в магазине, "
            "на такси, за прошлую неделю…), заблокировать карту, оспорить списание или "
            "рассказать, как идут ваши споры. Что вы хотите сделать?"
        ),
    },
    "hello": {"en": "Hello! ", "ru": "Здравствуйте! "},
    # Asked for a person: the chat offers "Talk to a specialist" by itself.
    "person": {
        "en": "A specialist from our support team can take over this conversation: press "
        "\u201cTalk to a specialist\u201d.",
        "ru": "Этот разговор может продолжить специалист нашей поддержки: нажмите "
        "\u00abПоговорить со специалистом\u00bb.",
    },
    "prepared": {
        "en": ("I've prepared this for you: {summary}. Please check it and press Confirm if it is right."),
        "ru": ("Я подготовил это для вас: {summary}. Проверьте и нажмите «Подтвердить», если всё верно."),
    },
    # After a block proposed for a lost or stolen card: what blocking does, and the
    # replacement, which this chat cannot order.
    "lost_card_next": {
        "en": "Once you confirm, the card is blocked at once: no payments or cash withdrawals "
        "can be made with it. If you find it, you can unblock it here. For a new card, order a "
        "replacement in the bank's app or at a branch: I can't order one from this chat.",
        "ru": "После подтверждения карта будет заблокирована сразу: ею нельзя будет платить и "
        "снимать наличные. Если карта найдётся, её можно разблокировать здесь. Новую карту "
        "закажите в приложении банка или в отделении: из этого чата заказать её я не могу.",
    },
    # A proposed action in the reply's words, from the call's own arguments: the
    # harness's summary is in the page's language, which may not be the customer's.
    "action_block_card": {"en": "Block card •••• {card}", "ru": "Заблокировать карту •••• {card}"},
    "action_unblock_card": {"en": "Unblock card •••• {card}", "ru": "Разблокировать карту •••• {card}"},
    "action_raise_dispute": {
        "en": "Dispute {amount} of transaction {transaction}",
        "ru": "Оспорить {amount} по операции {transaction}",
    },
    # A dispute as its confirm card's headline says it (bankbot/cards.py), where the
    # transaction's row is in the model's context: amount, merchant, day and reference.
    "headline_raise_dispute": {
        "en": "Dispute {amount} at {merchant} on {date} — {transaction}",
        "ru": "Оспорить {amount} в {merchant} от {date} — {transaction}",
    },
    "pick_one": {
        "en": "Your words fit more than one, so I have not prepared anything yet. Press the "
        "button next to the one you mean.",
        "ru": "Под ваше описание подходит несколько, поэтому я пока ничего не подготовил. "
        "Нажмите кнопку рядом с нужной.",
    },
    "pick_nearest": {
        "en": "I couldn't match your words to exactly one, so I have not prepared anything yet. "
        "Here are the nearest: press the button next to the one you mean.",
        "ru": "Точно под ваше описание ничего не подошло, поэтому я пока ничего не подготовил. "
        "Вот самые близкие варианты: нажмите кнопку рядом с нужным.",
    },
    "pick_the_one": {
        "en": "I couldn't match your words exactly, so I have not prepared anything yet. If "
        "this is the one you mean, press its button.",
        "ru": "Точного совпадения с вашими словами нет, поэтому я пока ничего не подготовил. "
        "Если вы об этом, нажмите кнопку рядом.",
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
        "en": "Your statement for {month} has {count}, {total} in total.",
        "ru": "В выписке за {month} {count} на сумму {total}.",
    },
    "statement_empty": {
        "en": "There are no transactions in your statement for {month}.",
        "ru": "За {month} операций нет.",
    },
    "total": {
        "en": "In {month} you spent {total} ({count}).",
        "ru": "В {month_in} вы потратили {total} ({count}).",
    },
    "account_prefix": {"en": "Account {account}: ", "ru": "Счёт {account}: "},
    "card_digits": {
        "en": "Which card should I block? Please tell me its last four digits.",
        "ru": "Какую карту заблокировать? Напишите последние четыре цифры.",
    },
    "no_active_cards": {
        "en": "You have no active cards to block.",
        "ru": "У вас нет активных карт, которые можно заблокировать.",
    },
    "no_match": {
        "en": "I couldn't find a transaction matching your description.",
        "ru": "Я не нашёл операцию, подходящую под описание.",
    },
    "no_reference": {
        "en": "I couldn't find transaction {reference}.",
        "ru": "Я не нашёл операцию {reference}.",
    },
    "balance_one": {
        "en": "The balance of your account ending {account} is {balance}.",
        "ru": "Баланс счёта, оканчивающегося на {account}: {balance}.",
    },
    "balance_many": {"en": "Your balances: {items}.", "ru": "Баланс ваших счетов: {items}."},
    "balance_item": {"en": "account ending {account}: {balance}", "ru": "счёт на {account}: {balance}"},
    "no_accounts": {"en": "I couldn't find an account of yours.", "ru": "Я не нашёл ваших счетов."},
    "cards_list": {"en": "You have {count}: {items}.", "ru": "У вас {count}: {items}."},
    "card_state": {"en": "Card •••• {card} is {status}.", "ru": "Карта •••• {card}: {status}."},
    "card_item": {"en": "•••• {card} — {status}", "ru": "•••• {card} — {status}"},
    "card_active": {"en": "active", "ru": "активна"},
    "card_blocked_customer": {"en": "blocked by you", "ru": "заблокирована вами"},
    "card_blocked_bank": {"en": "blocked by the bank", "ru": "заблокирована банком"},
    "card_unblock_hint": {
        "en": " To unblock a card you blocked, press Unblock… next to it.",
        "ru": " Чтобы разблокировать карту, которую вы заблокировали, нажмите «Разблокировать…» рядом с ней.",
    },
    "card_bank_hint": {
        "en": " A card the bank blocked is unblocked by support: please call us or visit a branch.",
        "ru": " Карту, заблокированную банком, разблокирует поддержка: позвоните нам или "
        "приходите в отделение.",
    },
    "no_such_card": {
        "en": "You have no card ending {card}.",
        "ru": "У вас нет карты, оканчивающейся на {card}.",
    },
    "no_cards": {"en": "You have no cards.", "ru": "У вас нет карт."},
    "disputes_none": {"en": "You have no disputes.", "ru": "У вас нет споров."},
    "dispute_missing": {"en": "I couldn't find dispute {dispute}.", "ru": "Я не нашёл спор {dispute}."},
    "disputes_list": {"en": "Your disputes: {items}.", "ru": "Ваши споры: {items}."},
    "dispute_one": {"en": "Dispute {item}.", "ru": "Спор {item}."},
    "dispute_item": {
        "en": "{dispute} about {transaction} ({amount}), opened {opened}: {status}",
        "ru": "{dispute} по операции {transaction} ({amount}), открыт {opened}: {status}",
    },
    "dispute_note": {
        "en": " The bank's note to you is in the table below.",
        "ru": " Комментарий банка для вас — в таблице ниже.",
    },
    "dispute_opened": {"en": "open", "ru": "открыт"},
    "dispute_in_review": {"en": "being reviewed", "ru": "рассматривается"},
    "dispute_resolved": {"en": "resolved", "ru": "решён"},
    "dispute_rejected": {"en": "rejected", "ru": "отклонён"},
    "spent": {
        "en": "{period} you spent {total}{what} ({count}).",
        "ru": "{period} вы потратили {total}{what} ({count}).",
    },
    "spent_nothing": {"en": "{period} you spent nothing{what}.", "ru": "{period} трат{what} не было."},
    "spent_rows": {"en": " The transactions are below.", "ru": " Операции — ниже."},
    "spent_newest": {"en": " The newest {shown} are below.", "ru": " Последние {shown} — ниже."},
    "at_merchant": {"en": " at {merchant}", "ru": " в {merchant}"},
    "category_taxi": {"en": " on taxis", "ru": " на такси"},
    "category_groceries": {"en": " on groceries", "ru": " на продукты"},
    "category_coffee": {"en": " on coffee", "ru": " на кофе"},
    "category_restaurants": {"en": " on restaurants and food delivery", "ru": " на рестораны и доставку еды"},
    "category_travel": {"en": " on travel", "ru": " на путешествия"},
    "category_electronics": {"en": " on electronics", "ru": " на электронику"},
    "category_entertainment": {"en": " on entertainment", "ru": " на развлечения"},
    "category_subscriptions": {"en": " on subscriptions", "ru": " на подписки"},
    "category_shopping": {"en": " on online shopping", "ru": " на онлайн-покупки"},
    "period_month": {"en": "In {month}", "ru": "В {month}"},
    "period_today": {"en": "Today ({days})", "ru": "Сегодня ({days})"},
    "period_yesterday": {"en": "Yesterday ({days})", "ru": "Вчера ({days})"},
    "period_day_before_yesterday": {"en": "The day before yesterday ({days})", "ru": "Позавчера ({days})"},
    "period_this_week": {"en": "This week ({days})", "ru": "На этой неделе ({days})"},
    "period_last_week": {"en": "Last week ({days})", "ru": "На прошлой неделе ({days})"},
    "period_last_days": {
        "en": "In the last {count} days ({days})",
        "ru": "За последние {count} дн. ({days})",
    },
    "period_days": {"en": "From {days}", "ru": "С {days}"},
    "twice_found": {
        "en": "I found {count} of {amount}{at}: {rows}. If one of them is a mistake, "
        "press Dispute… next to it below.",
        "ru": "Я нашёл {count} по {amount}{at}: {rows}. Если одно из них ошибочное, "
        "нажмите «Оспорить…» рядом с ним ниже.",
    },
    "twice_row": {"en": "{reference} on {posted_at}", "ru": "{reference} от {posted_at}"},
    "twice_none": {
        "en": "I couldn't find two charges of the same amount{at}; the charges I found are "
        "below. If one of them is wrong, press Dispute… next to it.",
        "ru": "Я не нашёл двух списаний на одну сумму{at}; найденные операции — ниже. Если "
        "какая-то из них ошибочная, нажмите «Оспорить…» рядом с ней.",
    },
    "twice_nothing": {"en": "I couldn't find any charges{at}.", "ru": "Я не нашёл списаний{at}."},
    "and": {"en": " and ", "ru": " и "},
    "unavailable": {
        "en": "Sorry, I can't do that in this chat.",
        "ru": "Извините, в этом чате я не могу это сделать.",
    },
}


# The values that are amounts, in every phrase that names one.
AMOUNTS = frozenset({"total", "balance", "amount"})


def say(key: str, language: Language, **values: str) -> str:
    return TEXTS[key][language].format(
        **{name: money(value, language) if name in AMOUNTS else value for name, value in values.items()}
    )


def money(amount: str, language: Language) -> str:
    """A bank figure as the language writes it: "15,000.00 ₸" / "15 000,00 ₸"."""
    return kzt_text(amount, language)


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


# A day as the confirm card writes it ("j M Y": "13 Nov 2026", «13 Ноя 2026»).
SHORT_MONTHS: dict[Language, tuple[str, ...]] = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "ru": ("Янв", "Фев", "Мар", "Апр", "Май", "Июн", "Июл", "Авг", "Сен", "Окт", "Ноя", "Дек"),
}


def short_day(day: str, language: Language) -> str:
    """'2026-11-13' -> '13 Nov 2026' / '13 Ноя 2026', as the confirm card shows a day; "" for
    anything that is not such a day."""
    try:
        year, month, number = (int(part) for part in day.split("-"))
        return f"{number} {SHORT_MONTHS[language][month - 1]} {year}"
    except (ValueError, IndexError):
        return ""


def count_transactions(count: int, language: Language) -> str:
    return count_of(count, language, ("transaction", "transactions"), ("операция", "операции", "операций"))


def count_of(count: int, language: Language, english: tuple[str, str], russian: tuple[str, str, str]) -> str:
    """'2 cards' / '2 карты': a number with its noun in the right plural."""
    if language == "en":
        return f"{count} {english[0] if count == 1 else english[1]}"
    # Russian plural: 1 операция, 2–4 операции, 5–20 операций, 21 операция…
    if count % 10 == 1 and count % 100 != 11:
        word = russian[0]
    elif 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        word = russian[1]
    else:
        word = russian[2]
    return f"{count} {word}"


def days_label(first: str, last: str, language: Language) -> str:
    """'2026-11-16', '2026-11-22' -> '16–22 November 2026' / '16–22 ноября 2026'."""
    try:
        start, end = (tuple(int(part) for part in day.split("-")) for day in (first, last))
        (y1, m1, d1), (y2, m2, d2) = start, end
        names = ENGLISH_MONTHS if language == "en" else RUSSIAN_MONTHS
        month: Callable[[int], str] = (
            (lambda number: names[number][0].capitalize())
            if language == "en"
            else (lambda number: names[number][1])
        )
    except (KeyError, ValueError):
        return f"{first} – {last}"
    if start == end:
        return f"{d1} {month(m1)} {y1}"
    if (y1, m1) == (y2, m2):
        return f"{d1}–{d2} {month(m2)} {y2}"
    if y1 == y2:
        return f"{d1} {month(m1)} – {d2} {month(m2)} {y2}"
    return f"{d1} {month(m1)} {y1} – {d2} {month(m2)} {y2}"
