"""{{ text|reveal_hidden }}: text a merchant (or anyone but the bank) wrote, with its
invisible and bidirectional control characters shown as markers (accounts/text.py)."""

from __future__ import annotations

from django import template

from accounts import text

register = template.Library()


@register.filter
def reveal_hidden(value: object) -> str:
    return text.reveal_hidden("" if value is None else str(value))
