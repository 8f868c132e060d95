"""A dispute's status and a card's state in words, in the page's language (the
catalog's own words; the answer check writes the same words, G10)."""

from __future__ import annotations

from typing import Any

from django import template

from tools.catalog.raise_dispute import STATUS_WORDS
from tools.catalog.rows import CARD_STATE_WORDS

register = template.Library()


@register.filter
def dispute_status(value: Any) -> Any:
    """'in_review' -> 'being reviewed' (lazy: rendered in the active language)."""
    return STATUS_WORDS.get(str(value), value)


@register.filter
def card_state(value: Any) -> Any:
    """'blocked' -> 'Blocked', the card chip's word (lazy, like dispute_status)."""
    return CARD_STATE_WORDS.get(str(value), value)
