"""Text from outside, made storable."""

from __future__ import annotations

from typing import Any


def without_nul(value: Any) -> Any:
    """PostgreSQL text and jsonb cannot hold NUL, and a customer or a model can send
    one. Stored text keeps the evidence with U+FFFD in its place instead of failing."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_nul(v) for v in value]
    return value


def unreadable(text: str) -> bool:
    """Text that is not text: a lone surrogate (JSON can carry one; no database can
    store it), or U+FFFD, which stands where a browser or Django met characters
    that were not text (a form field with a lone surrogate arrives as one)."""
    if "\ufffd" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
