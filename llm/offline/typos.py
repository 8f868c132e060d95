"""Typed words, read as meant: "statment" is "statement", «выпску» is «выписку».

The offline model's patterns match words exactly, so a message is first rewritten
with each misspelt word replaced by the one it is nearest to in a small vocabulary
of the words those patterns look for, using rapidfuzz's optimal string alignment
distance (a swap of two letters is one edit). The verbs of writes (block,
dispute…) are corrected too, by one edit at most ("blcok", "dispuet",
«заблакируйте»): the offline model stands in for an LLM and proposes whenever the
customer may be asking (issue 22, point 4). It never decides: the mandate grants
only exact forms, and a typo at most opens buttons.
"""

from __future__ import annotations

import re

from rapidfuzz import process
from rapidfuzz.distance import OSA

from .months import ENGLISH_MONTHS, RUSSIAN_MONTHS

# Each word the understanding patterns key on, with the concept it stands for:
# a misspelling as near to two concepts' words is left alone.
_CONCEPTS: dict[str, tuple[str, ...]] = {
    "statement": (
        "statement",
        "statements",
        "transactions",
        "transaction",
        "history",
        "payments",
        "purchases",
        "activity",
        "выписка",
        "выписку",
        "выписки",
        "выписке",
        "операции",
        "операций",
        "операциям",
        "транзакции",
        "транзакций",
        "история",
        "историю",
        "платежи",
        "платежей",
    ),
    "spend": (
        "spend",
        "spent",
        "spending",
        "total",
        "потратил",
        "потратила",
        "потратили",
        "траты",
        "трат",
        "расходы",
        "расходов",
        "сколько",
        "итого",
        "всего",
    ),
    "balance": ("balance", "balances", "available", "баланс", "остаток", "остатке", "денег", "средств"),
    "card": ("cards", "карта", "карты", "карту", "картой", "картам", "картах"),
    "dispute": (
        "disputes",
        "споры",
        "спора",
        "споров",
        "диспуты",
        "диспута",
        "претензии",
        "претензия",
        "претензию",
    ),
    "status": ("status", "статус", "статуса"),
    "twice": ("twice", "double", "дважды"),
    "yesterday": ("yesterday", "вчера"),
    "day_before": ("позавчера",),
    "today": ("today", "сегодня"),
    "week": ("неделе", "неделю", "недели"),
    "last": ("previous", "прошлой", "прошлую", "прошлый", "прошлом", "последние", "последнюю"),
    "this": ("этой", "текущей"),
    "days": ("дней",),
    "month": ("month", "месяц", "месяца", "месяце"),
    "taxi": ("taxis", "такси"),
    "groceries": ("groceries", "grocery", "supermarket", "продукты", "продуктов", "продуктах"),
    "coffee": ("coffee",),
    "restaurants": ("restaurants", "restaurant", "рестораны", "ресторанах", "ресторанов"),
    "travel": ("travel", "flights", "перелёты", "перелеты", "авиабилеты", "путешествия"),
    "electronics": ("electronics", "электронику", "электроника", "технику"),
    "entertainment": ("entertainment", "cinema", "movies", "развлечения", "кинотеатр"),
    "shopping": ("shopping", "покупки"),
}
# The writes' verbs: corrected by one edit at most, so a state ("blocked",
# «заблокирована», "disputed") is never read as a request.
WRITE_CONCEPTS: dict[str, tuple[str, ...]] = {
    "block": ("block", "freeze", "заблокируйте", "заблокируй", "заблокировать", "заморозьте", "заморозить"),
    "unblock": (
        "unblock",
        "unfreeze",
        "разблокируйте",
        "разблокируй",
        "разблокировать",
        "разморозьте",
        "разморозить",
    ),
    "dispute-verb": ("dispute", "chargeback", "оспорьте", "оспорить", "оспорь"),
}
_CONCEPTS.update(WRITE_CONCEPTS)
for _number, _names in (*ENGLISH_MONTHS.items(), *RUSSIAN_MONTHS.items()):
    # Abbreviations ("sept", "oct") are too short to correct safely; full names only.
    _CONCEPTS[f"month-{_number}"] = _CONCEPTS.get(f"month-{_number}", ()) + tuple(
        name for name in _names if len(name) >= 5
    )

VOCABULARY: dict[str, str] = {word: concept for concept, words in _CONCEPTS.items() for word in words}
_CHOICES = list(VOCABULARY)

# Real words one letter from a vocabulary word: never "corrected" into it
# ("match" is not "march", «марка» is neither «марта» nor «карта»).
KEEP = frozenset(
    {
        "match",
        "matches",
        "batch",
        "cards",
        "spent",
        "spend",
        "total",
        "month",
        "marks",
        "chase",
        "trace",
        "spell",
        "hello",
        "thanks",
        "please",
        "status",
        "статус",
        "марка",
        "марку",
        "парта",
        "карма",
        "тратит",
        "сколь",
        "black",
        "blocks",
        "clock",
        "flock",
        "breeze",
        "frieze",
        "disputed",
        "blocked",
        "frozen",
        "unblocked",
        "заблокирую",
        "оспорю",
    }
)

# The shortest word worth correcting: shorter ones ("card" / "hard") are too close
# to too many real words.
SHORTEST = 5
WORD_RE = re.compile(r"[A-Za-zА-Яа-яЁё]+")


def corrected(text: str) -> str:
    """``text`` with each misspelt vocabulary word replaced by the word meant."""
    return WORD_RE.sub(lambda match: _word(match.group(0)), text)


def _word(word: str) -> str:
    lower = word.lower()
    if len(lower) < SHORTEST or lower in VOCABULARY or lower in KEEP:
        return word
    limit = 1 if len(lower) < 8 else 2
    found = process.extract(lower, _CHOICES, scorer=OSA.distance, score_cutoff=limit, limit=5)
    if not found:
        return word
    best = min(distance for _choice, distance, _index in found)
    meant = {VOCABULARY[choice] for choice, distance, _index in found if distance == best}
    if len(meant) != 1:
        return word  # as near to two meanings: not a typo we can read
    if best > 1 and meant <= set(WRITE_CONCEPTS):
        return word  # a write's verb: one edit at most
    return next(choice for choice, distance, _index in found if distance == best)
