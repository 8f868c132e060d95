"""Candidates: the customer's objects that best fit a request the mandate could not bind (G7).

A request that binds to no object, or to several, grants nothing; the denial then
lists candidates, and the chat shows them with their buttons, where a click is the
customer's own mandate for exactly that object. So nothing here grants anything: it
only ranks what to *offer*, so that every request to act ends in the action or in
buttons, never in a dead end (issue 22, point 1).

Transactions are ranked by how well each fits what was said: the merchant's name
against the customer's words (rapidfuzz, so a typo such as "Magnm" still finds
Magnum), the category the customer named against the payment's merchant category code
(the bank's data), the amount's and the date's closeness, a reference's digits, the card;
the most recent first among equals. Rows past the dispute window are never offered.
Cards are those the operation applies to (its button's rule: an active card to
block, a card the customer blocked to unblock), ranked by digits and brand.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.utils import timezone
from rapidfuzz import fuzz

from accounts.categories import category_of
from accounts.models import Card, Customer, Transaction
from accounts.money import DateMention
from accounts.selectors import cards_for_customer, customer_transactions
from disputes.services import dispute_window_open
from tools.binding import card_descriptors, name_words, sound_key
from tools.grammar import TargetWords

# At most this many candidates are offered for one request.
OFFERED = 5
# The most recent rows looked at when nothing narrower was said.
POOL = 2000
# A word this similar (0–100) to a word of the merchant's name counts towards it.
_SIMILAR = 70.0
# What an exactly said reference weighs against the other features (each about 1).
_EXACT_REFERENCE = 10.0


def transaction_candidates(
    customer: Customer,
    target: TargetWords,
    *,
    among: Collection[str] | None = None,
    limit: int = OFFERED,
    min_fit: float = -1.0,
) -> tuple[str, ...]:
    """The references of the customer's disputable transactions that best fit
    ``target``, best first (``among``: only these references; ``min_fit``: only those
    that fit better than this)."""
    today = timezone.localdate()
    rows = customer_transactions(customer=customer).select_related("card")
    if among is not None:
        rows = rows.filter(reference__in=list(among))
    else:
        oldest = timezone.now() - timedelta(days=settings.BANKBOT_DISPUTE_WINDOW_DAYS + 1)
        rows = rows.filter(posted_at__gte=oldest)
    pool = [
        t
        for t in rows.order_by("-posted_at", "-id")[:POOL]
        if dispute_window_open(timezone.localdate(t.posted_at))
    ]
    fits = [(transaction_fit(txn, target, today), index, txn) for index, txn in enumerate(pool)]
    # "the biggest purchase", «самую мелкую»: among equals, by amount (else the most recent).
    sign = {"max": -1, "min": 1}.get(target.size or "", 0)
    ranked = sorted((f for f in fits if f[0] > min_fit), key=lambda f: (-f[0], sign * f[2].amount, f[1]))
    return tuple(txn.reference for _, _, txn in ranked[:limit])


def transaction_fit(txn: Transaction, target: TargetWords, today: date) -> float:
    """How well one transaction fits what the customer said: 0 (nothing fits)
    upwards, one point at most per feature they gave (merchant words: per word)."""
    posted_on = timezone.localdate(txn.posted_at)
    score = merchant_fit(txn.merchant, target.words | target.soft) + kind_fit(txn, target.kinds)
    score += kind_fit(txn, target.soft_kinds) / 2  # a category the story named
    said = [*target.amounts, *(value for value, _ in target.rounded)]
    score += max((_closeness(txn.amount, amount) for amount in said), default=0.0)
    score += max((_date_fit(posted_on, mention, today) for mention in target.dates), default=0.0)
    score += 1.0 if any(mention.matches(posted_on) for mention in target.any_dates) else 0.0
    # A reference said exactly is the one identifier the customer cannot mean loosely:
    # it outranks every other feature together ("T-5005, part of it: 2 500").
    score += max(
        (
            _EXACT_REFERENCE
            if txn.reference.upper() == ref.upper()
            else fuzz.ratio(txn.reference.upper(), ref.upper()) / 100
            for ref in target.references
        ),
        default=0.0,
    )
    if txn.card is not None and txn.card.last4 in target.cards:
        score += 1.0
    if txn.card is not None and target.descriptors and (target.descriptors <= card_descriptors(txn.card)):
        score += 1.0  # "on my virtual card"
    return score


def merchant_fit(name: str, words: Collection[str]) -> float:
    """The customer's words against a merchant's name: per word, its best
    similarity to a word of the name (a prefix counts as whole), above a floor."""
    names = name_words(name)
    if not names:
        return 0.0
    total = 0.0
    for word in words:
        best = max(_word_similarity(word, n) for n in names)
        if best >= _SIMILAR:
            total += (best - _SIMILAR) / (100 - _SIMILAR)
    return total


def kind_fit(txn: Transaction, kinds: Collection[str]) -> float:
    """A point when the payment's category (its merchant category code, the bank's data)
    is one the customer named ("the taxi", «электроника»)."""
    return 1.0 if category_of(txn.mcc) in kinds else 0.0


def _word_similarity(word: str, name: str) -> float:
    if len(word) >= 3 and name.startswith(word):
        return 100.0
    # «технодон» against "Technodom": compared by their sounds too (binding.sound_key).
    return float(max(fuzz.ratio(word, name), fuzz.ratio(sound_key(word), sound_key(name))))


def _closeness(actual: Decimal, said: Decimal) -> float:
    larger = max(actual, said)
    if larger <= 0:
        return 0.0
    return max(0.0, 1.0 - float(abs(actual - said) / larger))


def _date_fit(posted_on: date, mention: DateMention, today: date) -> float:
    if mention.day is None:
        if posted_on.month == mention.month and mention.year in (None, posted_on.year):
            return 1.0
        months = abs(
            (posted_on.year * 12 + posted_on.month) - ((mention.year or posted_on.year) * 12 + mention.month)
        )
        return 1.0 / (1 + 2 * months)
    said = _day_said(mention, posted_on, today)
    if said is None:
        return 0.0
    return 1.0 / (1 + abs((posted_on - said).days))


def _day_said(mention: DateMention, posted_on: date, today: date) -> date | None:
    """The day a mention names, in the year it most likely means (the latest not
    after today, unless it gave one)."""
    assert mention.day is not None
    year = mention.year or today.year
    try:
        said = date(year, mention.month, mention.day)
        if mention.year is None and said > today:
            said = date(year - 1, mention.month, mention.day)
    except ValueError:
        return None
    return said


def card_candidates(
    customer: Customer,
    target: TargetWords,
    offered: Callable[[Mapping[str, object]], bool],
    row: Callable[[Card], Mapping[str, object]],
    *,
    limit: int = OFFERED,
) -> tuple[str, ...]:
    """The last four digits of the customer's cards the operation applies to
    (``offered``, over each card's ``row``), those nearest what was said first:
    its digits, then the words of its brand."""
    cards = [c for c in cards_for_customer(customer=customer) if offered(row(c))]
    # Words that describe a card ("the Mastercard"), wherever the grammar keeps them.
    words = target.words | getattr(target, "descriptors", frozenset())

    def fit(card: Card) -> float:
        digits = max((fuzz.ratio(card.last4, said) / 100 for said in target.cards), default=0.0)
        return digits + merchant_fit(card.brand, words)

    ranked = sorted(enumerate(cards), key=lambda item: (-fit(item[1]), item[0]))
    return tuple(card.last4 for _, card in ranked[:limit])
