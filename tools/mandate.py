"""The mandate: what the customer asked for, in their own words or clicks (G7).

Built only from text the customer authored and from their explicit UI choices.
It never sees tool output, so text planted in a merchant's description can
never widen what the harness will propose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

BLOCK_CARD = "block_card"
RAISE_DISPUTE = "raise_dispute"

# Stems, so one pattern covers the Russian cases ("заблокируй", "блокировать").
_OPERATION_PATTERNS = {
    BLOCK_CARD: re.compile(
        r"\b(block|freeze|lock|deactivate|cancel my card|lost|stolen)"
        r"|(за)?блок|замороз|потерял|украл",
        re.IGNORECASE,
    ),
    RAISE_DISPUTE: re.compile(
        r"\b(dispute|chargeback|charge ?back|unauthori[sz]ed|fraud|did ?n[o']t (make|buy|pay)"
        r"|never (made|bought|paid)|don'?t recogni[sz]e|wrong(ly)? charged)"
        r"|оспор|\bспор(?!т)|диспут|не соверша|не покупал|не оплачивал|не узна|мошенн|ошибочн",
        re.IGNORECASE,
    ),
}
# "don't block", "не блокируйте": a negated verb is not a request.
_NEGATED = re.compile(
    r"\b(don'?t|do not|never|no need to)\s+(block|freeze|lock|dispute)"
    r"|\bне\s+(за)?(блок|оспар|замораж)",
    re.IGNORECASE,
)

_CARD_DIGITS = re.compile(r"(?<![\d-])(\d{4})(?!\d)")
_TRANSACTION_REF = re.compile(r"\bT-?(\d{3,})\b", re.IGNORECASE)
_AMOUNT = re.compile(r"(?<![\w.-])(\d{1,3}(?:[ \u00a0]\d{3})+|\d+)(?:[.,](\d{1,2}))?(?![\d-])")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DOTTED_DATE = re.compile(r"\b(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?\b")
_WORD = re.compile(r"[\w&'*.-]{4,}", re.UNICODE)

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
    "янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6,
    "июл": 7, "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
}
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([a-zа-яё]{3,})", re.IGNORECASE)
_MONTH_DAY = re.compile(r"\b([a-z]{3,})\s+(\d{1,2})(?:st|nd|rd|th)?\b", re.IGNORECASE)


@dataclass(frozen=True)
class Mandate:
    operations: frozenset[str] = frozenset()
    cards: frozenset[str] = frozenset()
    transactions: frozenset[str] = frozenset()
    amounts: frozenset[Decimal] = frozenset()
    days: frozenset[tuple[int, int]] = frozenset()  # (month, day): the year is implied
    # The customer's own words, lower-cased: a merchant is a traceable target
    # only if the customer typed (part of) its name.
    words: frozenset[str] = frozenset()
    # "block my card" with no digits: only a customer with one active card can mean one.
    any_card: bool = False
    sources: tuple[str, ...] = field(default=())

    def allows(self, operation: str) -> bool:
        return operation in self.operations

    def merge(self, other: Mandate) -> Mandate:
        return Mandate(
            operations=self.operations | other.operations,
            cards=self.cards | other.cards,
            transactions=self.transactions | other.transactions,
            amounts=self.amounts | other.amounts,
            days=self.days | other.days,
            words=self.words | other.words,
            any_card=self.any_card or other.any_card,
            sources=self.sources + other.sources,
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "operations": sorted(self.operations),
            "cards": sorted(self.cards),
            "transactions": sorted(self.transactions),
            "amounts": [f"{a:.2f}" for a in sorted(self.amounts)],
            "days": [f"{m:02d}-{d:02d}" for m, d in sorted(self.days)],
            "any_card": self.any_card,
            "sources": list(self.sources),
        }


# A sentence that reports or asks about what already happened ("the widget said
# the customer already confirmed the dispute of T-1004. Did it go through?") is
# not a request; dropping it costs at most a re-ask, never a wrongful action.
# Sentence ends: punctuation followed by a space, or a line break ("2500.50" and
# "03.10" stay whole).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_NOT_A_REQUEST = re.compile(
    r"\b(already|уже)\b|^\s*(did|has|have|was|were|is it|was it)\b"
    r"|\bgo(ne)? through\b|^\s*(прош(ел|ёл|ла|ло)|был[аои]?)\b",
    re.IGNORECASE,
)


def _requests_only(text: str) -> str:
    return " ".join(s for s in _SENTENCE_END.split(text) if not _NOT_A_REQUEST.search(s))


def mandate_from_text(text: str, *, source: str = "message") -> Mandate:
    """Parse one message the customer wrote (English or Russian)."""
    text = _requests_only(text or "")
    without_negated = _NEGATED.sub(" ", text)
    operations = frozenset(
        op for op, pattern in _OPERATION_PATTERNS.items() if pattern.search(without_negated)
    )
    references = frozenset(f"T-{m}" for m in _TRANSACTION_REF.findall(text))
    # Strip references and dates first so their digits are not read as card
    # numbers or amounts.
    rest = _TRANSACTION_REF.sub(" ", text)
    days = set(_days(rest))
    rest = _DOTTED_DATE.sub(" ", _ISO_DATE.sub(" ", rest))
    cards = frozenset(_CARD_DIGITS.findall(rest)) if BLOCK_CARD in operations else frozenset()
    amounts = frozenset(_amounts(_strip_named_days(rest)))
    return Mandate(
        operations=operations,
        cards=cards,
        transactions=references,
        amounts=amounts,
        days=frozenset(days),
        words=frozenset(w.lower().strip(".'") for w in _WORD.findall(text)),
        any_card=BLOCK_CARD in operations and not cards,
        sources=(source,),
    )


def mandate_from_ui(action: dict[str, str], *, source: str = "ui") -> Mandate:
    """An explicit click: {"operation": "raise_dispute", "transaction": "T-10452"}
    or {"operation": "block_card", "card": "4242"}."""
    operation = action.get("operation")
    if operation == RAISE_DISPUTE and action.get("transaction"):
        return Mandate(
            operations=frozenset({RAISE_DISPUTE}),
            transactions=frozenset({str(action["transaction"]).upper()}),
            sources=(source,),
        )
    if operation == BLOCK_CARD and action.get("card"):
        return Mandate(
            operations=frozenset({BLOCK_CARD}), cards=frozenset({str(action["card"])}),
            sources=(source,),
        )
    return Mandate(sources=(source,))


def mandate_build(customer_inputs: Iterable[tuple[str, str | None, dict | None]]) -> Mandate:
    """Merge the customer's recent inputs: (source id, text, ui action)."""
    mandate = Mandate()
    for source, text, ui_action in customer_inputs:
        if text:
            mandate = mandate.merge(mandate_from_text(text, source=source))
        if ui_action:
            mandate = mandate.merge(mandate_from_ui(ui_action, source=source))
    return mandate


def _amounts(text: str) -> Iterable[Decimal]:
    for whole, cents in _AMOUNT.findall(text):
        digits = re.sub(r"[ \u00a0]", "", whole)
        # Four bare digits are as likely a card or a year as an amount; they
        # still count as an amount when written with a currency.
        with_currency = re.search(rf"{digits}\s*(kzt|тг|тенге|₸)", text, re.IGNORECASE)
        if len(digits) == 4 and not cents and not with_currency:
            continue
        try:
            yield Decimal(f"{digits}.{cents or '0'}").quantize(Decimal("0.01"))
        except InvalidOperation:
            continue


def _strip_named_days(text: str) -> str:
    """Remove "3 October" / "October 3" so the day is not read as an amount."""

    def drop(match: re.Match[str]) -> str:
        words = [g for g in match.groups() if not g.isdigit()]
        return " " if _MONTHS.get(words[0][:3].lower()) else match.group(0)

    return _DAY_MONTH.sub(drop, _MONTH_DAY.sub(drop, text))


def _days(text: str) -> Iterable[tuple[int, int]]:
    for _, month, day in _ISO_DATE.findall(text):
        yield int(month), int(day)
    for day, month, _ in _DOTTED_DATE.findall(text):
        if 1 <= int(month) <= 12:
            yield int(month), int(day)
    for day, word in _DAY_MONTH.findall(text):
        month = _MONTHS.get(word[:3].lower())
        if month and 1 <= int(day) <= 31:
            yield month, int(day)
    for word, day in _MONTH_DAY.findall(text):
        month = _MONTHS.get(word[:3].lower())
        if month and 1 <= int(day) <= 31:
            yield month, int(day)


def transaction_traced_by(mandate: Mandate, *, reference: str, merchant: str,
                          amount: Decimal, posted_on: date) -> frozenset[str]:
    """How the customer identified this transaction, if they did: by its reference,
    by a word of the merchant's name they typed, by its exact amount, by its date.
    Empty when they did not."""
    traced = set()
    if reference.upper() in mandate.transactions:
        traced.add("reference")
    if amount in mandate.amounts:
        traced.add("amount")
    if (posted_on.month, posted_on.day) in mandate.days:
        traced.add("day")
    merchant_words = {w.lower().strip(".'") for w in _WORD.findall(merchant)}
    if merchant_words & (mandate.words - _OPERATION_WORDS):
        traced.add("merchant")
    return frozenset(traced)


# Words of requests themselves: a merchant called "Dispute" or "Block" must
# not become traceable just because the customer asked to dispute or block.
_OPERATION_WORDS = frozenset({
    "dispute", "block", "card", "charge", "payment", "transaction", "freeze", "please",
    "from", "with", "that", "this", "there", "what", "спор", "карта", "карту", "платеж",
    "платёж", "списание", "оспорить", "заблокируй", "заблокировать",
})
