"""A dispute's status in words, in the page's language (the catalog's own words)."""

from __future__ import annotations

from typing import Any

from django import template

from tools.catalog.raise_dispute import STATUS_WORDS

register = template.Library()


@register.filter
def dispute_status(value: Any) -> Any:
    """'in_review' -> 'being reviewed' (lazy: rendered in the active language)."""
    return STATUS_WORDS.get(str(value), value)
