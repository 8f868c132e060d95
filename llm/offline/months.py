"""Months as customers name them, in English and Russian.

"October", "Oct 2026", "3 октября", "в прошлом месяце", "2026-10", "10/2026":
each becomes a "YYYY-MM" string relative to the conversation's today.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ENGLISH_MONTHS: dict[int, tuple[str, ...]] = {
    1: ("january", "jan"),
    2: ("february", "feb"),
    3: ("march", "mar"),
    4: ("april", "apr"),
    5: ("may",),
    6: ("june", "jun"),
    7: ("july", "jul"),
    8: ("august", "aug"),
    9: ("september", "sept", "sep"),
    10: ("october", "oct"),
    11: ("november", "nov"),
    12: ("december", "dec"),
}

# Every grammatical case a month name takes in a request: nominative (выписка
# за октябрь), genitive (3 октября), prepositional (в октябре), dative
# (к октябрю), instrumental (октябрём / октябрем, with or without ё).
RUSSIAN_MONTHS: dict[int, tuple[str, ...]] = {
    1: ("январь", "января", "январе", "январю", "январём", "январем"),
    2: ("февраль", "февраля", "феврале", "февралю", "февралём", "февралем"),
    3: ("март", "марта", "марте", "марту", "мартом"),
    4: ("апрель", "апреля", "апреле", "апрелю", "апрелем"),
    5: ("май", "мая", "мае", "маю", "маем"),
    6: ("июнь", "июня", "июне", "июню", "июнем"),
    7: ("июль", "июля", "июле", "июлю", "июлем"),
    8: ("август", "августа", "августе", "августу", "августом"),
    9: ("сентябрь", "сентября", "сентябре", "сентябрю", "сентябрём", "сентябрем"),
    10: ("октябрь", "октября", "октябре", "октябрю", "октябрём", "октябрем"),
    11: ("ноябрь", "ноября", "ноябре", "ноябрю", "ноябрём", "ноябрем"),
    12: ("декабрь", "декабря", "декабре", "декабрю", "декабрём", "декабрем"),
}

MONTH_BY_NAME: dict[str, int] = {
    name: number
    for table in (ENGLISH_MONTHS, RUSSIAN_MONTHS)
    for number, names in table.items()
    for name in names
}

# Longest names first so "september" wins over "sep" in the alternation.
_MONTH_NAMES = "|".join(sorted(MONTH_BY_NAME, key=len, reverse=True))
_ORDINAL = r"(?:st|nd|rd|th|-?го|-?е)?"

# "3 October", "October 3rd, 2026", "3 октября 2026 года", "Oct. 2026".
# The day after the name must not be the start of a year ("October 2026").
MONTH_NAME_RE = re.compile(
    rf"(?:\b(?P<day_before>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?)?"
    rf"\b(?P<name>{_MONTH_NAMES})\b\.?"
    rf"(?:\s+(?P<day_after>\d{{1,2}}){_ORDINAL}\b(?!\s*\d))?"
    r"(?:,?\s+(?P<year>(?:19|20)\d{2})\b(?:\s*(?:года|год|г\.))?)?",
    re.IGNORECASE,
)

# ISO-ish "2026-10" or "2026-10-03" (also with /), year first. Not with a dot:
# "2000.10" is far more likely an amount of money than October 2000.
YEAR_FIRST_RE = re.compile(
    r"\b(?P<year>(?:19|20)\d{2})[-/](?P<month>0?[1-9]|1[0-2])(?:[-/](?P<day>\d{1,2}))?\b"
)
# Russian-style full date "03.10.2026" (day first; only with dots, because
# "10/03/2026" is month-first in American usage and too ambiguous to guess).
DAY_FIRST_RE = re.compile(r"\b(?P<day>\d{1,2})\.(?P<month>0?[1-9]|1[0-2])\.(?P<year>(?:19|20)\d{2})\b")
# "10/2026", "10.2026": month then year.
MONTH_FIRST_RE = re.compile(r"\b(?P<month>0?[1-9]|1[0-2])[/.](?P<year>(?:19|20)\d{2})\b")

# Relative months, as an offset from the current month. Order matters:
# "позапрошлый" must be tried before "прошлый".
RELATIVE_MONTHS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"\bmonth\s+before\s+last\b|\btwo\s+months\s+ago\b", re.I), -2),
    (re.compile(r"\bпозапрошл\w*\s+месяц\w*", re.I), -2),
    (re.compile(r"\b(?:last|previous|past|prior)\s+month\b|\ba\s+month\s+ago\b", re.I), -1),
    (re.compile(r"\b(?:прошл|предыдущ)\w*\s+месяц\w*|\bмесяц\s+назад\b", re.I), -1),
    (re.compile(r"\b(?:this|current)\s+month\b", re.I), 0),
    (re.compile(r"\b(?:эт|текущ)\w*\s+месяц\w*", re.I), 0),
)

# Words that make a bare "may" a month rather than a modal verb ("May I…").
_MAY_PREPOSITIONS = re.compile(r"\b(?:in|for|of|during|since|from|until|last|this)\s+$", re.I)


@dataclass(frozen=True)
class MonthMention:
    month: str  # "YYYY-MM"
    day: int | None
    start: int
    end: int


def shift_month(today: date, offset: int) -> str:
    index = today.year * 12 + (today.month - 1) + offset
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def most_recent(month: int, today: date) -> str:
    """A month named without a year means the latest one that is not in the future."""
    year = today.year if month <= today.month else today.year - 1
    return f"{year:04d}-{month:02d}"


def find_month(text: str, today: date) -> MonthMention | None:
    """The first month the text mentions, in any supported phrasing."""
    for pattern in (YEAR_FIRST_RE, DAY_FIRST_RE, MONTH_FIRST_RE):
        match = pattern.search(text)
        if match:
            day = int(match["day"]) if "day" in match.groupdict() and match["day"] else None
            month = f"{int(match['year']):04d}-{int(match['month']):02d}"
            return MonthMention(month, _valid_day(day), match.start(), match.end())
    for match in MONTH_NAME_RE.finditer(text):
        if _is_modal_may(text, match):
            continue
        number = MONTH_BY_NAME[match["name"].lower()]
        year = match["year"]
        month = f"{int(year):04d}-{number:02d}" if year else most_recent(number, today)
        day_named = match["day_before"] or match["day_after"]
        return MonthMention(
            month, _valid_day(int(day_named) if day_named else None), match.start(), match.end()
        )
    for pattern, offset in RELATIVE_MONTHS:
        match = pattern.search(text)
        if match:
            return MonthMention(shift_month(today, offset), None, match.start(), match.end())
    return None


def _valid_day(day: int | None) -> int | None:
    return day if day is not None and 1 <= day <= 31 else None


def _is_modal_may(text: str, match: re.Match[str]) -> bool:
    if match["name"].lower() != "may" or match["day_before"] or match["day_after"] or match["year"]:
        return False
    return not _MAY_PREPOSITIONS.search(text[: match.start("name")])
