"""Runs of days as customers name them: "yesterday", "last week", «вчера»,
«на прошлой неделе», "the last 10 days". Each becomes the first and last day
(both included) relative to the conversation's today; whole months are months.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

PeriodKind = Literal["today", "yesterday", "day_before_yesterday", "this_week", "last_week", "last_days"]


@dataclass(frozen=True)
class Period:
    kind: PeriodKind
    first: date
    last: date

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1


_PATTERNS: tuple[tuple[re.Pattern[str], PeriodKind], ...] = (
    (re.compile(r"\bday\s+before\s+yesterday\b|\bпозавчера\b", re.I), "day_before_yesterday"),
    (re.compile(r"\byesterday\b|\bвчера\w*", re.I), "yesterday"),
    (re.compile(r"\btoday\b|\bсегодня\w*", re.I), "today"),
    (
        re.compile(
            r"\b(?:last|previous|prior)\s+week\b|\bweek\s+before\b"
            r"|\b(?:прошл|предыдущ)\w*\s+недел\w*",
            re.I,
        ),
        "last_week",
    ),
    (re.compile(r"\b(?:this|current)\s+week\b|\b(?:эт|текущ)\w*\s+недел\w*", re.I), "this_week"),
)
# "the last 10 days", "past 7 days", "за последние 10 дней", "последнюю неделю".
_LAST_DAYS = re.compile(
    r"\b(?:last|past)\s+(?P<n>\d{1,3})\s+days?\b|\bпоследни[ех]\s+(?P<n_ru>\d{1,3})\s+(?:дн|день)\w*", re.I
)
_LAST_SEVEN = re.compile(r"\b(?:the\s+)?past\s+week\b|\bпоследн\w+\s+недел\w*", re.I)
LONGEST = 366


def find_period(text: str, today: date) -> Period | None:
    """The run of days the text names, or None."""
    match = _LAST_DAYS.search(text)
    if match:
        count = min(int(match["n"] or match["n_ru"]), LONGEST)
        return Period("last_days", today - timedelta(days=max(count, 1) - 1), today)
    if _LAST_SEVEN.search(text):
        return Period("last_days", today - timedelta(days=6), today)
    for pattern, kind in _PATTERNS:
        if pattern.search(text):
            return _period(kind, today)
    return None


def _period(kind: PeriodKind, today: date) -> Period:
    monday = today - timedelta(days=today.weekday())
    if kind == "yesterday":
        return Period(kind, today - timedelta(days=1), today - timedelta(days=1))
    if kind == "day_before_yesterday":
        return Period(kind, today - timedelta(days=2), today - timedelta(days=2))
    if kind == "this_week":
        return Period(kind, monday, today)
    if kind == "last_week":
        return Period(kind, monday - timedelta(days=7), monday - timedelta(days=1))
    return Period("today", today, today)
