"""Spending categories: which of a customer's transactions count as "taxis" or
"groceries" when they ask how much they spent on them.

The demo has no merchant category codes, so a category is a bank-kept list of
words found in a transaction's merchant name or description. The list is the
bank's; the sum over the rows it selects is computed by the database
(accounts.selectors.spending_for_period), never by the model.
"""

from __future__ import annotations

from django.db.models import Q

CATEGORY_WORDS: dict[str, tuple[str, ...]] = {
    "taxi": ("taxi", "yandex go", "uber", "indrive"),
    "groceries": ("groceries", "grocery", "magnum", "small", "arbuz", "supermarket"),
    "coffee": ("coffee", "starbucks"),
    "restaurants": ("restaurant", "chocofamily", "wolt", "glovo", "cafe"),
    "travel": ("flight", "air astana", "scat", "airline", "hotel"),
    "electronics": ("electronics", "headphones", "sulpak", "technodom"),
    "entertainment": ("cinema", "kinopark", "tickets"),
    "shopping": ("kaspi magazin", "online order", "wildberries", "ozon"),
}
CATEGORIES = tuple(CATEGORY_WORDS)


def category_filter(category: str) -> Q:
    """The rows of one category: any of its words in the merchant or the description."""
    query = Q()
    for word in CATEGORY_WORDS[category]:
        query |= Q(merchant__icontains=word) | Q(description__icontains=word)
    return query
