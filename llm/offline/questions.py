"""The offline model's answers to what customers ask about their own data: the
balance, their cards, their disputes, what they spent, and charges that look
doubled. Every figure is copied as the tool result spelled it (a bank-computed
figure, so the answer check passes it, G10); merchant-written text is never quoted.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .chat_request import ChatRequest, Exchange
from .phrases import count_of, count_transactions, days_label, month_label, say
from .understanding import CustomerRequest, Language

ROWS_SHOWN = 10


def answers(conversation: ChatRequest, request: CustomerRequest) -> list[str]:
    """A sentence for each of this turn's read results the customer asked about."""
    texts: list[str] = []
    for exchange in conversation.results():
        if exchange.status != "ok":
            continue
        if exchange.name == "get_balance" and request.intent == "balance":
            texts.append(balance(exchange.data, request.language))
        elif exchange.name == "list_cards" and request.intent == "cards":
            texts.append(cards(exchange.data, request))
        elif exchange.name == "get_disputes" and request.intent == "disputes":
            texts.append(disputes(exchange.data, request))
        elif exchange.name == "get_spending" and request.intent == "spending":
            texts.append(spending(exchange.data, request))
        elif exchange.name == "find_transactions" and request.intent == "duplicates":
            texts.append(duplicates(exchange, request))
    return texts


def balance(data: dict[str, Any], language: Language) -> str:
    accounts = [a for a in data.get("accounts", []) if isinstance(a, dict)]
    if not accounts:
        return say("no_accounts", language)
    values = [{"account": str(a.get("account")), "balance": str(a.get("balance_kzt"))} for a in accounts]
    if len(values) == 1:
        return say("balance_one", language, **values[0])
    return say("balance_many", language, items="; ".join(say("balance_item", language, **v) for v in values))


def card_status(card: dict[str, Any], language: Language) -> str:
    if card.get("status") == "active":
        return say("card_active", language)
    return say(
        "card_blocked_customer" if card.get("blocked_by") == "customer" else "card_blocked_bank", language
    )


def cards(data: dict[str, Any], request: CustomerRequest) -> str:
    language = request.language
    rows = [c for c in data.get("cards", []) if isinstance(c, dict)]
    if request.card:
        rows = [c for c in rows if str(c.get("card")) == request.card]
        if not rows:
            return say("no_such_card", language, card=request.card)
        text = say(
            "card_state", language, card=str(rows[0].get("card")), status=card_status(rows[0], language)
        )
    elif not rows:
        return say("no_cards", language)
    else:
        # By its digits only: a card's label holds its brand, text staff may edit.
        items = "; ".join(
            say("card_item", language, card=str(c.get("card")), status=card_status(c, language)) for c in rows
        )
        text = say(
            "cards_list",
            language,
            items=items,
            count=count_of(len(rows), language, ("card", "cards"), ("карта", "карты", "карт")),
        )
    blocked_by = {c.get("blocked_by") for c in rows if c.get("status") == "blocked"}
    if "customer" in blocked_by:
        text += say("card_unblock_hint", language)
    if "bank" in blocked_by:
        text += say("card_bank_hint", language)
    return text


def disputes(data: dict[str, Any], request: CustomerRequest) -> str:
    language = request.language
    rows = [d for d in data.get("disputes", []) if isinstance(d, dict)]
    if not rows:
        if request.dispute:
            return say("dispute_missing", language, dispute=request.dispute)
        return say("disputes_none", language)
    items = [
        say(
            "dispute_item",
            language,
            dispute=str(d.get("dispute_id")),
            transaction=str(d.get("transaction")),
            amount=str(d.get("amount_kzt")),
            opened=days_label(str(d.get("opened_on")), str(d.get("opened_on")), language),
            status=say(f"dispute_{d.get('status')}", language)
            if f"dispute_{d.get('status')}" in _STATUSES
            else str(d.get("status")),
        )
        for d in rows
    ]
    if request.dispute and len(items) == 1:
        text = say("dispute_one", language, item=items[0])
    else:
        text = say("disputes_list", language, items="; ".join(items))
    # The note is staff's text: shown escaped in the table, not retold here (G6, G10).
    if any(d.get("note_from_bank") for d in rows):
        text += say("dispute_note", language)
    return text


_STATUSES = {"dispute_opened", "dispute_in_review", "dispute_resolved", "dispute_rejected"}


def spending(data: dict[str, Any], request: CustomerRequest) -> str:
    language = request.language
    what = ""
    if request.merchant:
        what = say("at_merchant", language, merchant=request.merchant)
    elif data.get("category"):
        what = say(f"category_{data['category']}", language)
    period = _period(data, request)
    count = data.get("count")
    count = count if isinstance(count, int) else 0
    if count == 0:
        return say("spent_nothing", language, period=period, what=what)
    text = say(
        "spent",
        language,
        period=period,
        what=what,
        total=str(data.get("total_kzt")),
        count=count_transactions(count, language),
    )
    if data.get("has_more"):
        return text + say("spent_newest", language, shown=str(ROWS_SHOWN))
    return text + say("spent_rows", language)


def _period(data: dict[str, Any], request: CustomerRequest) -> str:
    language = request.language
    first, last = str(data.get("date_from", "")), str(data.get("date_to", ""))
    days = days_label(first, last, language)
    if request.period is None:
        month = first[:7]
        if first.endswith("-01") and last[:7] == month:
            return say("period_month", language, month=month_label(month, language, case="prepositional"))
        return say("period_days", language, days=days)
    if request.period.kind == "last_days":
        return say("period_last_days", language, days=days, count=str(request.period.days))
    return say(f"period_{request.period.kind}", language, days=days)


def duplicates(exchange: Exchange, request: CustomerRequest) -> str:
    """Charges of the same amount at the merchant the customer named: each pair (or
    more) listed by reference and date, with the rows below carrying Dispute…."""
    language = request.language
    at = say("at_merchant", language, merchant=request.merchant) if request.merchant else ""
    rows = exchange.transactions()
    if not rows:
        return say("twice_nothing", language, at=at)
    by_amount: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_amount[str(row.get("amount_kzt"))].append(row)
    doubled = [(amount, group) for amount, group in by_amount.items() if len(group) > 1]
    if not doubled:
        return say("twice_none", language, at=at)
    texts = []
    for amount, group in doubled:
        listed = [
            say(
                "twice_row",
                language,
                reference=str(row.get("reference")),
                posted_at=str(row.get("posted_at")),
            )
            for row in group
        ]
        texts.append(
            say(
                "twice_found",
                language,
                amount=amount,
                at=at,
                rows=", ".join(listed[:-1]) + say("and", language) + listed[-1],
                count=count_of(
                    len(group), language, ("charges", "charges"), ("списание", "списания", "списаний")
                ),
            )
        )
    return " ".join(texts)
