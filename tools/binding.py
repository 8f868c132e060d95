"""Binding: the one object of the customer's that a request names, or why there is none (G7).

Every feature the customer gave (reference, card digits, amount, date, merchant
words) must match, and the match must be unique. A bound request is a ``Grant``
for one exact action — target, amount, reason —; a request that binds to none or
to several objects is ``Unbound``, which keeps what was understood, so the
assistant can offer the candidates' buttons instead. Which binder a tool uses is
its catalog entry's choice (tools/catalog).

A ``Mandate`` holds one input's grants and unbound requests; ``tools.mandate`` builds
it. It lives here, below the catalog, so that ``ActionContext`` (tools/context.py)
carries one without importing the catalog whose tools take an ``ActionContext``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.utils import timezone

from accounts.categories import category_filter, category_of
from accounts.models import Card, Customer, Transaction
from accounts.money import CENT, normalised
from accounts.selectors import cards_for_customer, customer_transactions
from tools.grammar import DEFAULT_REASON, DESCRIPTOR_PATTERNS, STOPWORDS, Request, TargetWords

# More candidates than this for one request is never a unique match.
CANDIDATE_LIMIT = 200


@dataclass(frozen=True)
class Grant:
    """One exact action the customer asked for."""

    operation: str
    target: str  # a card's last four digits, or a transaction's reference
    amount: Decimal | None = None  # disputes: the one amount allowed; None: the full amount
    reason: str | None = None  # disputes: the reason code
    source: str = ""
    # The customer's own words named the target exactly (its reference, its card
    # digits): no text they read could have chosen it (tools/provenance.py).
    named: bool = False

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"operation": self.operation, "target": self.target}
        if self.reason is not None:  # a priced grant (a dispute): its amount and reason
            found["amount"] = f"{self.amount:.2f}" if self.amount is not None else "full"
            found["reason"] = self.reason
        return found


@dataclass(frozen=True)
class Unbound:
    """A request understood but not granted, and why."""

    operation: str
    problem: str  # "unsure" | "no_target" | "no_match" | "ambiguous"
    detail: str = ""
    candidates: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "problem": self.problem,
            "detail": self.detail,
            "candidates": list(self.candidates),
        }


@dataclass(frozen=True)
class Mandate:
    """What one customer input asked for: the grants, and the requests that bound to none."""

    grants: tuple[Grant, ...] = ()
    unbound: tuple[Unbound, ...] = ()
    sources: tuple[str, ...] = ()

    def allows(self, operation: str) -> bool:
        """Did the customer ask for this operation at all (bound or not)?"""
        return any(g.operation == operation for g in self.grants) or any(
            u.operation == operation for u in self.unbound
        )

    def grants_for(self, operation: str, target: str) -> list[Grant]:
        """The grants of this operation on this object (a tool's ``grant`` picks the
        one that authorises exactly its call)."""
        return [g for g in self.grants if g.operation == operation and g.target == target]

    def grant_for(self, operation: str, target: str) -> Grant | None:
        """The grant of this operation on this object, for a tool whose call is its
        target alone (a card to block or unblock)."""
        return next(iter(self.grants_for(operation, target)), None)

    def unbound_for(self, operation: str) -> Unbound | None:
        return next((u for u in self.unbound if u.operation == operation), None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "grants": [g.as_dict() for g in self.grants],
            "unbound": [u.as_dict() for u in self.unbound],
            "sources": list(self.sources),
        }


def name_words(name: str) -> frozenset[str]:
    """The words of a merchant's name or a card's label that can identify it:
    normalised, lower-case, generic words (shop, company, taxi, ТОО…) dropped."""
    return spelled_words(name) - STOPWORDS


def spelled_words(name: str) -> frozenset[str]:
    """Every word of a merchant's name, generic ones too: a word the customer said that
    is in the name ("Air Astana": «эйр астане») fits it, though alone it names no one."""
    text = normalised(name).lower().replace("ё", "е")
    return frozenset(w for w in re.findall(r"[a-zа-я0-9]+", text) if len(w) >= 2)


def _spelled_in(word: str, generic: frozenset[str]) -> bool:
    """A generic word of the name said ("Air Astana": «эйр астане»), read strictly: the same
    sounds, a Russian ending at most, never a stem guessed from a short word."""
    key = sound_key(word)
    return any(
        key == sound_key(g)
        or (len(g) >= 5 and key.startswith(sound_key(g)[:-1]) and 0 <= len(key) - len(sound_key(g)) <= 2)
        for g in generic
    )


def _word_matches(word: str, names: frozenset[str]) -> bool:
    if word in names:
        return True
    # Russian inflects names ("в Магнуме"): the same stem with a short ending.
    if not _cyrillic(word):
        return False
    if len(word) >= 4 and any(_cyrillic(n) and len(n) >= 4 and _same_stem(word, n) for n in names):
        return True
    # A Latin name written in Cyrillic («глово», «в технодоме», «бум»): the same sounds,
    # compared as spelling-free keys — a transliteration, not a guess; a short word must
    # sound exactly alike, a longer one may carry a Russian ending.
    key = sound_key(word)
    return any(
        not _cyrillic(n)
        and (sound_key(n) == key or (len(word) >= 4 and len(n) >= 4 and _same_stem(key, sound_key(n))))
        for n in names
    )


def _same_stem(word: str, name: str) -> bool:
    return abs(len(name) - len(word)) <= 2 and (word.startswith(name[:-1]) or name.startswith(word[:-1]))


_CYRILLIC_SOUNDS = str.maketrans(
    {
        "а": "a",
        "б": "b",
        "в": "v",
        "г": "g",
        "д": "d",
        "е": "e",
        "ж": "zh",
        "з": "z",
        "и": "i",
        "й": "i",
        "к": "k",
        "л": "l",
        "м": "m",
        "н": "n",
        "о": "o",
        "п": "p",
        "р": "r",
        "с": "s",
        "т": "t",
        "у": "u",
        "ф": "f",
        "х": "h",
        "ц": "ts",
        "ч": "ch",
        "ш": "sh",
        "щ": "sch",
        "ъ": "",
        "ы": "i",
        "ь": "",
        "э": "e",
        "ю": "yu",
        "я": "ya",
    }
)
_LATIN_SPELLINGS = (
    ("x", "ks"),
    ("w", "v"),
    ("ck", "k"),
    ("ch", "h"),
    ("kh", "h"),
    ("c", "k"),
    ("ph", "f"),
    ("ai", "ei"),
    ("ay", "ei"),
    ("oo", "u"),
    ("y", "i"),
    ("j", "zh"),
    # an unstressed Russian о sounds as а: «смолл» is "Small"
    ("o", "a"),
)


def sound_key(word: str) -> str:
    """A name's sounds in plain Latin letters, one way for both scripts: «технодом» and
    "Technodom" → "tehnadam", «нетфликс» and "Netflix" → "netfliks", «эйр» and "Air" → "eir"."""
    key = word.lower().translate(_CYRILLIC_SOUNDS)
    for spelling, sound in _LATIN_SPELLINGS:
        key = key.replace(spelling, sound)
    return re.sub(r"(.)\1+", r"\1", key)  # doubled letters: "Smoll", «Сулпакк»


def _cyrillic(word: str) -> bool:
    return any("CYRILLIC" in unicodedata.name(ch, "") for ch in word)


def bind_card(
    customer: Customer, request: Request, source: str, *, default: Callable[[Card], bool]
) -> Grant | Unbound:
    """The one card of the customer's the request names: by its digits or its brand;
    with neither ("block my card"), the one card ``default`` picks (block: the one
    active card; unblock: the one the customer blocked)."""
    operation, target = request.operation, request.target
    if target.references or target.amounts or target.partial or target.half:
        return Unbound(operation, "no_match", "a card is named by its digits or its label")
    cards = cards_for_customer(customer=customer)
    if len(target.cards) > 1:
        return Unbound(operation, "ambiguous", "more than one card was named", tuple(sorted(target.cards)))
    if target.cards:
        matching = [c for c in cards if c.last4 in target.cards]
    else:
        matching = [c for c in cards if default(c)]
    used, merchants = (None, frozenset()) if target.cards else _cards_used(customer, target)
    brands = frozenset().union(*(name_words(c.brand) for c in cards))
    words = _describing_words(target, brands) - merchants  # "Magnum" names a payment
    matching = [c for c in matching if all(_word_matches(w, name_words(c.brand)) for w in words)]
    described = [c for c in matching if target.descriptors <= card_descriptors(c)]
    if not described and "online" in target.descriptors:
        # "someone tried to pay online with my credit card": where, not which card.
        described = [c for c in matching if target.descriptors - {"online"} <= card_descriptors(c)]
    matching = described
    if used is not None:  # digits say it all; else the cards that paid, if any did
        matching = [c for c in matching if c.last4 in used]
    if len(matching) == 1:
        return Grant(operation, matching[0].last4, source=source, named=matching[0].last4 in target.cards)
    if not matching:
        return Unbound(operation, "no_match", "no card of the customer's matches")
    return Unbound(
        operation, "ambiguous", "the customer has several cards that match", tuple(c.last4 for c in matching)
    )


def card_descriptors(card: Card) -> frozenset[str]:
    """The descriptors (grammar.CARD_DESCRIPTORS) a card's product label carries:
    "Mastercard Gold" → {"mastercard", "gold"}; a card that is not virtual is physical."""
    label = normalised(card.brand)
    found = {name for name, pattern in DESCRIPTOR_PATTERNS.items() if pattern.search(label)}
    if "virtual" in found:
        found.add("online")
    else:
        found.add("physical")
    return frozenset(found)


USAGE_DAYS = 120


def _cards_used(customer: Customer, target: TargetWords) -> tuple[set[str] | None, frozenset[str]]:
    """ "The card I used at Magnum", «которой вчера платила за такси», "the card I froze on the
    10th": the cards of the customer's own payments that fit the merchant words and days
    said (or blocked on a day said), and the words that named merchants. None when the words
    describe no payment: then they describe the loss ("I lost it yesterday"), not the card."""
    if not (target.words or target.soft or target.dates):
        return None, frozenset()
    since = timezone.now() - timedelta(days=USAGE_DAYS)
    rows = list(
        customer_transactions(customer=customer)
        .filter(posted_at__gte=since)
        .select_related("card")
        .order_by("-posted_at")[:CANDIDATE_LIMIT]
    )
    vocabulary = frozenset().union(*(name_words(t.merchant) for t in rows))
    merchants = frozenset(w for w in target.words | target.soft if _word_matches(w, vocabulary))
    if not (merchants or target.dates):
        return None, merchants
    used = {
        t.card.last4
        for t in rows
        if t.card is not None
        and all(_word_matches(w, name_words(t.merchant)) for w in merchants)
        and all(d.matches(timezone.localdate(t.posted_at)) for d in target.dates)
    }
    if target.dates and not merchants:
        used |= {
            c.last4
            for c in cards_for_customer(customer=customer)
            if c.blocked_at and all(d.matches(timezone.localdate(c.blocked_at)) for d in target.dates)
        }
    return used or None, merchants


def bind_transaction(customer: Customer, request: Request, source: str) -> Grant | Unbound:
    """The one transaction of the customer's that every feature they gave fits."""
    operation, target = request.operation, request.target
    reason = request.reason or DEFAULT_REASON
    if target.empty:
        return Unbound(operation, "no_target", "no transaction was described")
    if len(target.references) > 1 or len(target.cards) > 1 or len(target.amounts) > 1:
        return Unbound(operation, "ambiguous", "more than one transaction was described")
    candidates = list(_candidates(customer, target))
    if len(candidates) >= CANDIDATE_LIMIT and (target.position is not None or target.size):
        # "the first …" among more rows than were read: the first read may not be the first.
        return Unbound(operation, "ambiguous", "too many payments to count which one is meant")
    described = _describing(target, candidates)
    if not (described.references or described.words) and described.words != target.words:
        # Words that name none of the customer's merchants, and nothing else that
        # names one: "the netflix charge of 4200" must not become any 4200 charge.
        return Unbound(
            operation,
            "no_match",
            "words that name none of the customer's merchants: "
            + ", ".join(sorted(target.words - described.words)),
        )
    target = described
    options: list[tuple[Transaction, Decimal]] = []
    for txn in candidates:
        amount = _amount_for(txn, target)
        if amount is not None and _features_match(txn, target):
            options.append((txn, amount))
    options = _chosen(options, target)
    if len(options) == 1:
        txn, amount = options[0]
        return Grant(
            operation, txn.reference, amount, reason, source, named=txn.reference in target.references
        )
    if not options:
        return Unbound(operation, "no_match", "no transaction of the customer's matches everything they said")
    # All that fit: the offer ranks them by how well each fits (a category, a name) and
    # shows the best few (tools/candidates.py), so none is cut by recency alone.
    return Unbound(
        operation,
        "ambiguous",
        "several transactions match what they said",
        tuple(txn.reference for txn, _ in options),
    )


def _describing(target: TargetWords, candidates: list[Transaction]) -> TargetWords:
    """Keep the words that describe a merchant; the rest are the customer's own
    ("the Yandex taxi ride, I never took it": "ride" and "took" name nothing)."""
    vocabulary = frozenset().union(*(name_words(t.merchant) for t in candidates))
    keep = _describing_words(target, vocabulary)
    return replace(target, words=frozenset(keep), names=frozenset(), neighbours=frozenset())


def _describing_words(target: TargetWords, vocabulary: frozenset[str]) -> frozenset[str]:
    keep = {w for w in target.words | target.soft if _word_matches(w, vocabulary)} | (
        target.names & target.words
    )
    # A word beside a name's word is part of the name the customer gave
    # ("the Acme Rides charge" is not the Acme Food one).
    for left, right in target.neighbours:
        if left in keep:
            keep.add(right)
        if right in keep:
            keep.add(left)
    return frozenset(keep)


def _amount_for(txn: Transaction, target: TargetWords) -> Decimal | None:
    """The one amount this transaction could be disputed for, given what was said:
    the part stated ("5000 of the …"), else the full amount. Any other amount the
    customer gave is the charge's own and must be its amount exactly."""
    if len(target.amounts) > 1 or len(target.partial) + target.half > 1:
        return None
    if target.amounts and target.amounts[0] != txn.amount:
        return None
    if target.rounded and not any(abs(txn.amount - value) <= slack for value, slack in target.rounded):
        return None
    if not (target.partial or target.half):
        return txn.amount
    part = target.partial[0] if target.partial else (txn.amount / 2).quantize(CENT)
    identified = target.references or target.words or target.amounts or any(d.day for d in target.dates)
    return part if identified and 0 < part <= txn.amount else None


_DAYPART_HOURS = {
    "morning": range(5, 12),
    "afternoon": range(12, 18),
    "evening": (*range(18, 24), *range(0, 5)),
}


def _chosen(
    options: list[tuple[Transaction, Decimal]], target: TargetWords
) -> list[tuple[Transaction, Decimal]]:
    """Which of the payments that fit the customer meant, when they said which: "the
    second" (in time order), "the last", "the bigger one". Said of payments described
    by nothing else it picks nothing: "the second one" is not a description."""
    described = (
        target.references
        or target.words
        or target.amounts
        or target.dates
        or target.rounded
        or target.descriptors
        or target.clock
        or target.kinds
        or target.any_dates
    )
    if target.position is None and target.size is None or not options:
        return options
    if not described or target.generic:
        return []
    ordered = sorted(options, key=lambda option: (option[0].posted_at, option[0].pk))
    if target.size is not None:
        if len(ordered) < 2:
            return []  # "the bigger one" of one payment: not what was meant
        amounts = [txn.amount for txn, _ in ordered]
        wanted = max(amounts) if target.size == "max" else min(amounts)
        ordered = [option for option in ordered if option[0].amount == wanted]
    if target.position is None:
        return ordered
    if len(ordered) == 1:  # "the last Magnum charge" and there is one: that one
        return ordered if target.position in (0, -1) else []
    if not -len(ordered) <= target.position < len(ordered):
        return []
    return [ordered[target.position]]


def _features_match(txn: Transaction, target: TargetWords) -> bool:
    if target.references and txn.reference.upper() not in target.references:
        return False
    if target.cards and (txn.card is None or txn.card.last4 not in target.cards):
        return False
    if target.descriptors and (txn.card is None or not target.descriptors <= card_descriptors(txn.card)):
        return False
    local = timezone.localtime(txn.posted_at)
    posted_on = local.date()
    if not all(mention.matches(posted_on) for mention in target.dates):
        return False
    if target.any_dates and not any(mention.matches(posted_on) for mention in target.any_dates):
        return False
    if target.daypart and local.hour not in _DAYPART_HOURS[target.daypart]:
        return False
    if target.clock and (local.hour, local.minute) not in target.clock:
        return False
    if (
        target.kinds
        and not (target.words or target.references)
        and txn.mcc
        and (category_of(txn.mcc) not in target.kinds)
    ):
        # "the taxi", said of no merchant by name: the bank's category decides; a row
        # without a code (a transfer) may be anything, so it stays a candidate.
        return False
    spelled = spelled_words(txn.merchant)
    merchant = spelled - STOPWORDS
    generic = spelled & STOPWORDS
    return all(_word_matches(word, merchant) or _spelled_in(word, generic) for word in target.words)


def _candidates(customer: Customer, target: TargetWords) -> Iterable[Transaction]:
    """The customer's transactions that could match, fetched by the most selective
    feature given; the full rules are applied in Python."""
    rows = customer_transactions(customer=customer).select_related("card")
    if target.references:
        return rows.filter(reference__in=[r.upper() for r in target.references])
    days = [d for d in target.dates if d.day]
    if days:
        return rows.filter(posted_at__month=days[0].month, posted_at__day=days[0].day).order_by(
            "-posted_at", "-id"
        )[:CANDIDATE_LIMIT]
    if not (target.amounts or target.rounded or target.words or target.soft or target.kinds):
        # Only a month, a week, a card or a position ("the first purchase in November",
        # "the last one on my virtual card"): the newest rows of the month, checked in Python.
        wanted = Q()
        for mention in target.dates:
            wanted &= Q(posted_at__month=mention.month)
        return rows.filter(wanted).order_by("-posted_at", "-id")[:CANDIDATE_LIMIT]
    wanted = Q(amount__in=list(target.amounts)) if target.amounts else Q(pk__in=[])
    for value, slack in target.rounded:
        wanted |= Q(amount__gte=value - slack, amount__lte=value + slack)
    if any(_cyrillic(word) for word in target.words | target.soft):
        # A name in Cyrillic may be a Latin merchant's (sound_key): the newest rows of the
        # month named (or any), compared in Python.
        wanted = Q()
    else:
        for word in target.words | target.soft:
            wanted |= _merchant_contains(word)
        for kind in target.kinds:
            wanted |= category_filter(kind) | Q(mcc__isnull=True)
    for mention in target.dates:  # a month: "the October Magnum charge"
        wanted &= Q(posted_at__month=mention.month)
    return rows.filter(wanted).order_by("-posted_at", "-id")[:CANDIDATE_LIMIT]


def _merchant_contains(word: str) -> Q:
    # SQLite's case-insensitive match knows only ASCII; spell the usual cases out.
    stem = word[:-2] if _cyrillic(word) and len(word) >= 6 else word
    return (
        Q(merchant__icontains=stem)
        | Q(merchant__contains=stem.capitalize())
        | Q(merchant__contains=stem.upper())
    )
