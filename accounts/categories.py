"""Spending categories, from the bank's data: a transaction's merchant category code.

A card network gives every card payment a merchant category code (MCC, ISO 18245:
4121 taxis, 5411 grocery stores, 5732 electronics…); the acquiring bank sets it, not
the merchant's own text. So a category is a set of codes, and a row belongs to one
by its ``Transaction.mcc`` alone: a merchant that writes "free coffee voucher" into
its description, or calls itself "Coffee Laptops", does not move its laptop into the
customer's coffee total (issue 23). A row without a code (a transfer) is in none.

What the customer calls each category, in English and Russian, lives here too, once:
the offline model reads spending questions with it, and the request grammar reads
"the taxi", «электроника», "the delivery order" with it (tools/grammar.py).
"""

from __future__ import annotations

import re
from functools import cache

from django.db.models import Q

# Each category: its code ranges, inclusive (ISO 18245; airlines and hotels have blocks
# of their own codes besides the generic one).
CATEGORY_CODES: dict[str, tuple[tuple[int, int], ...]] = {
    "taxi": ((4121, 4121),),
    "groceries": ((5411, 5411), (5422, 5422), (5441, 5451), (5462, 5462), (5499, 5499)),
    # Cafés, coffee shops and fast food share the network's "fast food" code.
    "coffee": ((5814, 5814),),
    "restaurants": ((5811, 5813),),
    "travel": (
        (3000, 3350),
        (3351, 3999),
        (4111, 4112),
        (4411, 4411),
        (4511, 4511),
        (4722, 4722),
        (7011, 7011),
    ),
    "electronics": ((5045, 5045), (5722, 5722), (5731, 5732), (5734, 5734)),
    "entertainment": ((7832, 7832), (7922, 7922), (7929, 7929), (7991, 7999)),
    "subscriptions": ((4899, 4899), (5815, 5818), (5968, 5968)),
    "shopping": ((5262, 5262), (5311, 5311), (5399, 5399), (5651, 5699), (5964, 5969), (5999, 5999)),
}
CATEGORIES = tuple(CATEGORY_CODES)
MCC_RE = re.compile(r"^\d{4}$")

# How customers name each category (whole words; a stem ends in \w*). A word may name
# more than one ("delivery": food or a parcel): it then names each.
_CUSTOMER_WORDS: dict[str, str] = {
    "taxi": r"taxi\w*|cabs?|rides?|такси|поездк\w*",
    "groceries": r"grocer\w*|supermarket\w*|food|продукт\w*|супермаркет\w*|ед[аыуе]|жрачк\w*",
    "coffee": r"coffees?|caf[eé]s?|food|кофе|кофейн\w*|кафе|ед[аыуе]|жрачк\w*",
    "restaurants": r"restaurants?|caf[eé]s?|food|meals?|dinner|lunch|pizza|delivery|ресторан\w*"
    r"|кафе|ед[аыуе]|жрачк\w*|обед\w*|ужин\w*|пицц\w*|доставк\w*",
    "travel": r"travel\w*|flights?|airlines?|air\s*tickets?|plane|airplane|tickets?|hotels?"
    r"|путешестви\w*|билет\w*|рейс\w*"
    r"|перел[её]т\w*|авиабилет\w*|авиакомпани\w*|гостиниц\w*|отел[ьяюем]\w*",
    "electronics": r"electronics?|gadgets?|laptops?|электроник\w*|техник\w*|гаджет\w*"
    r"|ноутбук\w*",
    "entertainment": r"entertainment|cinema|movies?|concerts?|tickets?|кино\w*|развлечени\w*"
    r"|концерт\w*|билет\w*",
    "subscriptions": r"subscriptions?|streaming|подписк\w*|стриминг\w*",
    "shopping": r"online\s+shop\w*|shopping|marketplace|parcel|package|delivery|интернет[\s-]*магазин\w*"
    r"|онлайн[\s-]*покуп\w*|маркетплейс\w*|посылк\w*|доставк\w*",
}
CUSTOMER_WORDS: dict[str, re.Pattern[str]] = {
    name: re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE) for name, words in _CUSTOMER_WORDS.items()
}
_ANY_WORD = re.compile(
    "|".join(rf"(?<!\w)(?:{words})(?!\w)" for words in _CUSTOMER_WORDS.values()), re.IGNORECASE
)


def category_of(mcc: str | None) -> str | None:
    """The category a merchant category code belongs to, or None (no code, or one
    no category covers)."""
    if not mcc or not MCC_RE.match(mcc):
        return None
    code = int(mcc)
    for name, ranges in CATEGORY_CODES.items():
        if any(low <= code <= high for low, high in ranges):
            return name
    return None


def category_filter(category: str) -> Q:
    """The rows of one category: by their merchant category code alone."""
    query = Q(pk__in=[])
    for low, high in CATEGORY_CODES[category]:
        query |= Q(mcc__gte=f"{low:04d}", mcc__lte=f"{high:04d}")
    return query


def categories_named(text: str) -> frozenset[str]:
    """The categories a customer's words name together: each word narrows ("food" is
    groceries, cafés or restaurants; "food delivery" only restaurants); words that
    name nothing in common name each of theirs."""
    said = [
        frozenset(name for name, pattern in CUSTOMER_WORDS.items() if pattern.fullmatch(match.group(0)))
        for match in _ANY_WORD.finditer(text)
    ]
    said = [names for names in said if names]
    if not said:
        return frozenset()
    common = frozenset.intersection(*said)
    return common or frozenset().union(*said)


@cache
def categories_of_word(word: str) -> frozenset[str]:
    """The categories one word names on its own ("taxi", «электроники», "delivery")."""
    return frozenset(name for name, pattern in CUSTOMER_WORDS.items() if pattern.fullmatch(word))
