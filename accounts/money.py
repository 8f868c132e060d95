"""Money and calendar, read one way: amounts and dates as people write them.

The mandate, the answer check, tool arguments and the views all read amounts
and dates here, so "15,000", "15 000", "15000,00 ₸" and "пятнадцать тысяч" mean
the same thing everywhere. (The offline model keeps a parser of its own: it
plays a model, and a model reads text its own way.)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.text import without_hidden
from errors import InvalidInput

CENT = Decimal("0.01")

# Characters that group thousands: space, no-break space, thin and narrow spaces.
_GROUP_SPACES = "\u0020\u00a0\u2009\u202f"
_CURRENCY = r"(?:₸|kzt|тг\.?|тенге|tenge|тнг)"


def to_amount(value: object) -> Decimal:
    """One amount, strictly: a positive KZT amount with at most two decimals.

    Accepts "15000", "15000.00", "15 000", "15,000", "15,000.50", "15000,50",
    "15 000 ₸" and "15000 KZT"; never a float. Raises InvalidInput otherwise.
    """
    if isinstance(value, float | bool):
        raise InvalidInput(_("Give the amount as a decimal string, e.g. 15000.00."), code="invalid_amount")
    text = re.sub(rf"\s*{_CURRENCY}\s*$", "", str(value).strip(), flags=re.IGNORECASE)
    amount = _number(text.strip())
    if amount is None or not amount.is_finite():
        raise InvalidInput(_("%(value)s is not an amount."), code="invalid_amount", value=repr(value))
    if amount <= 0:
        raise InvalidInput(_("The amount must be greater than zero."), code="invalid_amount")
    if amount != amount.quantize(CENT):
        raise InvalidInput(_("Amounts have at most two decimal places."), code="invalid_amount")
    return amount.quantize(CENT)


def _number(text: str) -> Decimal | None:
    """A number written with digits, grouped or not, with a decimal point or comma."""
    text = re.sub(f"[{_GROUP_SPACES}]", "", text)
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", text):  # 1,500 / 1,500.00
        text = text.replace(",", "")
    elif re.fullmatch(r"\d{1,3}(\.\d{3}){2,}(,\d+)?|\d{1,3}\.\d{3},\d+", text):
        # 1.500.000 / 1.500,00 (a lone "1.500" is one and a half)
        text = text.replace(".", "").replace(",", ".")
    else:
        text = text.replace(",", ".")
    if not re.fullmatch(r"\d+(\.\d+)?", text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def kzt_text(value: object, language: str | None = None) -> str:
    """A bank figure as the customer's language writes it, the one way every page
    and answer does: 15000.5 → "15,000.50 ₸" (English), "15 000,50 ₸" (Russian, with
    no-break spaces). ``language``: the active one unless given. ``amounts_in``
    reads both back."""
    try:
        amount = Decimal(str(value)).quantize(CENT)
    except (InvalidOperation, ValueError):
        return str(value)
    text = f"{amount:,.2f}"
    if (language or translation.get_language() or "en").startswith("ru"):
        text = text.replace(",", "\u00a0").replace(".", ",")
    return f"{text}\u00a0₸"


# --- amounts in running text -------------------------------------------------------


@dataclass(frozen=True)
class AmountMention:
    value: Decimal
    start: int
    end: int
    in_words: bool = False
    with_currency: bool = False
    # Half the unit it was rounded to: "12k" is 11,500–12,499 (slack 500), "1.2k" 50,
    # "12 350" 0. A figure written with a scale is a rounded figure.
    slack: Decimal = Decimal(0)


# What is not an amount although it is made of digits: dates, times, references
# (T-1004, D-…, P-…), card digits after a card word or a mask, account numbers,
# phone numbers. They are blanked out (same length, so positions hold) first.
_NOT_AMOUNTS = [
    re.compile(
        r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b|\b\d{1,2}:\d{2}\b"
        # 03.10, 15.09: a day and a month; but "15.00" and "5.05 ₸" are amounts.
        r"|(?<![\d.,])(?:0[1-9]\.(?:0[1-9]|1[0-2])|(?:[1-9]|[12]\d|3[01])\.0[1-9])\b"
        rf"(?!\s*(?i:{_CURRENCY}|млн|тыс|тыщ|лям|k\b|m\b|mln|mn\b|million|thousand))"
    ),
    re.compile(r"(?<![\w-])[TDPТ]-?\d{2,}\b", re.IGNORECASE),
    re.compile(
        r"(?:••••|\*{2,4}|x{4}|ending(?: in)?|ends? (?:in|with)|card|карт\w*|"
        r"(?:о|за)канчива\w*(?: на)?)\s*(?:•+\s*|\*+\s*)?\d{4}(?!\d|[.,]\d)",
        re.IGNORECASE,
    ),
    re.compile(r"\bKZ[0-9A-Z]{10,32}\b", re.IGNORECASE),
    re.compile(r"(?:\+\d{1,3}[\s-]?)?\(?\d{3}\)?[\s-]\d{3}[\s-]?\d{2}[\s-]?\d{2}\b"),
]
_DIGITS = re.compile(
    rf"(?<![\w.,\-/])(?P<number>\d{{1,3}}(?:[{_GROUP_SPACES},.]\d{{3}})+(?:[.,]\d{{1,2}})?"
    r"|\d+(?:[.,]\d{1,2})?)"
    # Scales as people type them: 20k, 8,4к, 20 тыщ, 3 косаря (slang for a thousand), 2 ляма.
    # «к» only right after the digits: "5 к обеду" is a preposition.
    # "74 с чем-то тысячи", "74-odd thousand": somewhere in the next unit.
    r"(?P<approx>\s*(?:с\s+чем-?то|с\s+лишним|с\s+копейками|-?odd|something|-ish)(?=\s*\w))?"
    r"(?P<scale>к|m(?:ln|n)?(?![a-z])|\s*(?:k|тыс\w*\.?|тыщ\w*|косар\w*|thousand|grand|млн\.?"
    r"|mln\.?|mn|million|лям\w*))?"
    rf"(?P<currency>\s*{_CURRENCY})?(?![\w])",
    re.IGNORECASE,
)
# «тысяч на двадцать», «тыщ на 20», «тысяч двадцать пять»: Russian says "about" by putting
# the scale before the number.
_SCALE_FIRST = re.compile(
    r"(?<!\d\s)(?<![\w\d])(?:тысяч|тыщ|тыс\.?)\s+(?:на\s+|под\s+)?"
    r"(?P<n>\d{1,3}(?![\d.,])|[а-яё]+(?:\s+[а-яё]+)?)",
    re.IGNORECASE,
)
_CURRENCY_BEFORE = re.compile(rf"{_CURRENCY}$", re.IGNORECASE)
_LONGEST_CURRENCY = 5  # "тенге", "tenge"


def _currency_before(text: str, end: int) -> bool:
    """Whether ``text[:end]`` ends with a currency and whitespace ("₸ 15 000"): read
    back from ``end``, not by searching the whole text before it for each number."""
    while end and text[end - 1].isspace():
        end -= 1
    return _CURRENCY_BEFORE.search(text, max(0, end - _LONGEST_CURRENCY), end) is not None


def ends_in_currency(text: str) -> bool:
    """Whether ``text`` ends with a currency, so that a figure after it, even on the next
    line, is read as money ("₸ 99", "тенге\n99", "тг. 99")."""
    return _currency_before(text, len(text))


def amounts_in(text: str, *, min_bare: int = 10, years: bool = True) -> list[AmountMention]:
    """Every amount in free text, written with digits or in words (English and
    Russian). A bare number below ``min_bare`` (no currency, no decimals) and,
    with ``years``, a bare four-digit year (1900–2100) are not amounts: "2 cards",
    "in 2026"."""
    text = text or ""
    blanked = text
    for pattern in _NOT_AMOUNTS:
        blanked = pattern.sub(lambda m: " " * len(m.group(0)), blanked)
    found: list[AmountMention] = []
    # «тысяч на двадцать», «тыщ на 20»: the scale first says "about" (20,000, give or take).
    for match in _SCALE_FIRST.finditer(blanked):
        before = blanked[: match.start()].split()[-1:]
        if before and _word_value(before[0]) is not None:
            continue  # «восемь тысяч четыреста»: the scale in its place
        number = match["n"]
        value = Decimal(number) if number.isdigit() else _below_a_thousand(number)
        if value is None or not 1 <= value < 1000:
            continue
        found.append(
            AmountMention(
                (value * 1000).quantize(CENT),
                match.start(),
                match.end(),
                in_words=not number.isdigit(),
                slack=Decimal(1000),
            )
        )
        blanked = blanked[: match.start()] + " " * (match.end() - match.start()) + blanked[match.end() :]
    read = blanked  # what the words reader sees: a scale read with digits ("15 тысяч") is read once
    for match in _DIGITS.finditer(blanked):
        raw = match["number"]
        value = _number(raw)
        if value is None:
            continue
        scale = (match["scale"] or "").strip().lower()
        if scale:
            value *= 1_000_000 if scale.startswith(("млн", "лям", "m")) else 1000
        currency = bool(match["currency"]) or _currency_before(blanked, match.start())
        decorated = currency or bool(scale) or not raw.isdigit()
        if not decorated and (value < min_bare or (years and len(raw) == 4 and 1900 <= value <= 2100)):
            continue
        slack = Decimal(0)
        if match["approx"] and not scale:
            continue  # "12 с копейками" alone is not read as an amount here
        if scale:
            decimals = len(re.split(r"[.,]", raw)[1]) if re.search(r"[.,]\d{1,2}$", raw) else 0
            unit = Decimal(1_000_000 if scale.startswith(("млн", "лям", "m")) else 1000)
            slack = unit / (10**decimals) / 2
            if match["approx"]:  # 74,000–75,000
                value += unit / (10**decimals) / 2
        found.append(
            AmountMention(
                value.quantize(CENT), match.start(), match.end(), with_currency=currency, slack=slack
            )
        )
        read = read[: match.start()] + " " * (match.end() - match.start()) + read[match.end() :]
    found += _amounts_in_words(read)
    return sorted(found, key=lambda m: m.start)


def _below_a_thousand(words: str) -> Decimal | None:
    """ "двадцать пять", "сто": a number under a thousand said in words, from the first
    word on (the words after it that are not numbers are left), else None."""
    current = 0
    for word in words.split():
        kind_value = _word_value(word)
        if kind_value is None or kind_value[0] == "scale":
            break
        kind, value = kind_value
        current = max(current, 1) * 100 if kind == "hundred" else current + int(value)
    return Decimal(current) if current else None


def amount_values(text: str, *, min_bare: int = 10) -> set[Decimal]:
    return {mention.value for mention in amounts_in(text, min_bare=min_bare)}


# --- numbers in words --------------------------------------------------------------

_EN_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
# Russian numerals by stem, so the cases read alike ("пятнадцать", "пятнадцати").
_RU_STEMS = [
    ("одиннадцат", 11),
    ("двенадцат", 12),
    ("тринадцат", 13),
    ("четырнадцат", 14),
    ("пятнадцат", 15),
    ("шестнадцат", 16),
    ("семнадцат", 17),
    ("восемнадцат", 18),
    ("девятнадцат", 19),
    ("двадцат", 20),
    ("тридцат", 30),
    ("сорок", 40),
    ("сорока", 40),
    ("пятьдесят", 50),
    ("пятидесят", 50),
    ("шестьдесят", 60),
    ("шестидесят", 60),
    ("семьдесят", 70),
    ("семидесят", 70),
    ("восемьдесят", 80),
    ("восьмидесят", 80),
    ("девяност", 90),
    ("двест", 200),
    ("двухсот", 200),
    ("трист", 300),
    ("трехсот", 300),
    ("четырест", 400),
    ("четырехсот", 400),
    ("пятьсот", 500),
    ("пятисот", 500),
    ("шестьсот", 600),
    ("шестисот", 600),
    ("семьсот", 700),
    ("семисот", 700),
    ("восемьсот", 800),
    ("восьмисот", 800),
    ("девятьсот", 900),
    ("девятисот", 900),
    ("десят", 10),
]
# Small numerals are whole words with their cases spelt out: as stems, "сем"
# and "пят" would also read "семья" and "пятно".
_RU_SMALL = {
    **dict.fromkeys(("один", "одна", "одно", "одного", "одной", "одну", "одним"), 1),
    **dict.fromkeys(("два", "две", "двух", "двум"), 2),
    **dict.fromkeys(("три", "трех", "трем"), 3),
    **dict.fromkeys(("четыре", "четырех", "четырем"), 4),
    **dict.fromkeys(("пять", "пяти"), 5),
    **dict.fromkeys(("шесть", "шести"), 6),
    **dict.fromkeys(("семь", "семи"), 7),
    **dict.fromkeys(("восемь", "восьми"), 8),
    **dict.fromkeys(("девять", "девяти"), 9),
}
_RU_HUNDRED = ("сто", "ста")
_HUNDREDS = frozenset(range(100, 1000, 100))
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_RU_SCALES = (("тысяч", 1000), ("тыщ", 1000), ("косар", 1000), ("миллион", 1_000_000))
# "полторы тыщи", "полтора косаря": one and a half of the scale after it.
_RU_HALF_MORE = ("полтора", "полторы", "полутора")
_WORD = re.compile(r"[a-zа-яё]+", re.IGNORECASE)
_JOINERS = {"and", "и", "-"}
_WORD_CURRENCY = re.compile(rf"\s*(?:{_CURRENCY}|тенге|tenges?)", re.IGNORECASE)


def number_word(word: str) -> bool:
    """Whether ``word`` can be part of an amount in words ("fifteen", "тысяч")."""
    return _word_value(word) is not None


@functools.lru_cache(maxsize=8192)
def _word_value(word: str) -> tuple[str, int | Decimal] | None:
    """("unit" | "hundred" | "scale", value) for a number word, else None. Remembered:
    the answer check reads every word of a streamed answer again as it grows."""
    word = word.lower().replace("ё", "е")
    if word in _EN_UNITS:
        return "unit", _EN_UNITS[word]
    if word == "hundred":
        return "hundred", 100
    if word in _SCALES:
        return "scale", _SCALES[word]
    if word in _RU_HUNDRED:
        return "unit", 100
    if word in _RU_HALF_MORE:
        return "unit", Decimal("1.5")
    for stem, value in _RU_SCALES:
        if word.startswith(stem):
            return "scale", value
    if word in _RU_SMALL:
        return "unit", _RU_SMALL[word]
    for stem, value in _RU_STEMS:
        # A stem with at most three letters of ending: "пятнадцать", "пятнадцати".
        if word.startswith(stem) and len(word) - len(stem) <= 3:
            return "unit", value
    return None


def _amounts_in_words(text: str) -> Iterator[AmountMention]:
    words = list(_WORD.finditer(text))
    index = 0
    while index < len(words):
        if _word_value(words[index].group(0)) is None:
            index += 1  # most words start no number: skipped without setting up a run
            continue
        run_start, last_end, count = words[index].start(), 0, 0
        total: Decimal | int = 0
        current: Decimal | int = 0
        while index < len(words):
            word = words[index]
            between = text[last_end : word.start()] if count else ""
            if count and between.strip() not in ("", "-") and between.strip().lower() not in _JOINERS:
                break
            if word.group(0).lower() in _JOINERS and count:
                index += 1
                continue
            kind_value = _word_value(word.group(0))
            if kind_value is None:
                break
            kind, value = kind_value
            if kind == "unit" and 0 < current < 100 and value in _HUNDREDS and not total:
                # «восемь четыреста», «двадцать три семьсот шестьдесят»: thousands said
                # without the word, as people say a price aloud.
                current = current * 1000 + value
            elif kind == "unit":
                current += value
            elif kind == "hundred":
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * value
                current = 0
            last_end, count = word.end(), count + 1
            index += 1
        if count == 0:
            index += 1
            continue
        amount = Decimal(total + current)
        currency = _WORD_CURRENCY.match(text, last_end)
        if amount >= 100 or (currency and amount > 0):
            end = currency.end() if currency else last_end
            yield AmountMention(
                amount.quantize(CENT), run_start, end, in_words=True, with_currency=bool(currency)
            )


# --- dates -------------------------------------------------------------------------


@dataclass(frozen=True)
class DateMention:
    """A day ("3 October", "2026-10-03", "yesterday") or a whole month ("in October")."""

    month: int
    day: int | None = None
    year: int | None = None
    start: int = 0
    end: int = 0

    def matches(self, day: date) -> bool:
        return (
            day.month == self.month
            and (self.day is None or day.day == self.day)
            and (self.year is None or day.year == self.year)
        )


_EN_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_RU_MONTHS = [
    ("январ", 1),
    ("феврал", 2),
    ("март", 3),
    ("апрел", 4),
    ("ма[йяе]", 5),
    ("июн", 6),
    ("июл", 7),
    ("август", 8),
    ("сентябр", 9),
    ("октябр", 10),
    ("ноябр", 11),
    ("декабр", 12),
]
_RU_MONTH_RE = "|".join(f"{stem}[а-я]{{0,3}}" for stem, _ in _RU_MONTHS)
_MONTH_WORD = rf"(?:[a-z]{{3,9}}|{_RU_MONTH_RE})"
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
# "1.2k" and "8,4к" are amounts, not the 1st of February.
_DOTTED = re.compile(
    r"(?<![\d.])(\d{1,2})[./](\d{1,2})(?:[./](\d{4}|\d{2}))?(?![\d.,]\d)"
    r"(?!\s?(?:k|к|тыс|тыщ|thousand)|[a-zа-я])",
    re.IGNORECASE,
)
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th|-?го|-?е)?\s+(?:of\s+)?({_MONTH_WORD})\b"
    r"(?:,?\s+(\d{4}))?",
    re.IGNORECASE,
)
_MONTH_DAY = re.compile(r"\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?", re.IGNORECASE)
_MONTH_ALONE = re.compile(rf"\b({_MONTH_WORD})\b(?:\s+(\d{{4}}))?", re.IGNORECASE)
# "the third of October", «третьего октября»: a day said as an ordinal word.
_EN_ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
_RU_ORDINALS = (  # stems: «трет» of «третьего», «третье»
    "перв",
    "втор",
    "трет",
    "четверт",
    "пят",
    "шест",
    "седьм",
    "восьм",
    "девят",
    "десят",
    "одиннадцат",
    "двенадцат",
    "тринадцат",
    "четырнадцат",
    "пятнадцат",
    "шестнадцат",
    "семнадцат",
    "восемнадцат",
    "девятнадцат",
    "двадцат",
)


def _ordinal_number(words: str) -> int | None:
    """1–31 from "third", "twenty-first", «третьего», «двадцать пятого»; else None."""
    parts = words.lower().replace("ё", "е").replace("-", " ").split()
    tens = 0
    if len(parts) == 2 and parts[0] in ("twenty", "thirty", "двадцать", "тридцать"):
        tens = 20 if parts[0] in ("twenty", "двадцать") else 30
        parts = parts[1:]
    if len(parts) != 1:
        return None
    word = parts[0]
    if word in ("thirtieth",) or word.startswith("тридцат"):
        number = 30
    elif word in _EN_ORDINALS:
        number = _EN_ORDINALS.index(word) + 1
    else:
        number = next(
            (
                n
                for n, stem in enumerate(_RU_ORDINALS, start=1)
                if word.startswith(stem)
                and word[len(stem) :] in ("ого", "ье", "ьего", "его", "ое", "ий", "ый")
            ),
            0,
        )
        if word.startswith("трет") and word[4:] in ("ьего", "ье", "ий"):
            number = 3
    if not number or (tens and number > 9):
        return None
    return tens + number if tens + number <= 31 else None


_WORD_DAY_MONTH = re.compile(
    rf"(?:the\s+)?(?P<day>(?:(?:twenty|thirty|двадцать|тридцать)[\s-])?[a-zа-яё]+)\s+(?P<of>of\s+)?"
    rf"(?P<month>{_MONTH_WORD})\b",
    re.IGNORECASE,
)
_TENS = {"twenty", "thirty", "двадцать", "тридцать"}
_EN_ORDINAL_WORD = re.compile(r"[a-z -]+$", re.IGNORECASE)
_RELATIVE = {
    "today": 0,
    "сегодня": 0,
    "сегодняшн": 0,
    "yesterday": 1,
    "вчера": 1,
    "вчерашн": 1,
    "позавчера": 2,
    "позавчерашн": 2,
}
# "this morning", "last night", «сегодня утром» is covered by «сегодня».
_PARTS_OF_DAY = re.compile(
    r"\b(?P<before>(?:the )?day before yesterday)\b"
    r"|\b(?P<today>this (?:morning|afternoon|evening)|tonight|earlier today)\b"
    r"|\b(?P<yesterday>last night|yesterday (?:morning|evening|night))\b",
    re.IGNORECASE,
)
_LAST_MONTH = re.compile(
    r"\b(?:last|previous|past) month\b|\bв прошлом месяце\b"
    r"|\bза прошлый месяц\b|\bпрошл\w+ месяц\w*\b",
    re.IGNORECASE,
)
_THIS_MONTH = re.compile(
    r"\bthis month\b|\bв этом месяце\b|\bза этот месяц\b"
    r"|\bтекущ\w+ месяц\w*\b",
    re.IGNORECASE,
)


# "last Tuesday", "on Tue", "tuesday's", «во вторник», «в прошлую пятницу»: the latest such
# day before today ("this Tuesday", «в этот вторник»: this week's, today included).
_EN_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_RU_WEEKDAYS = ("понедельн", "вторн", "сред", "четверг", "пятни", "суббот", "воскрес")
_WEEKDAY = re.compile(
    r"(?:\b(?P<this>this|эт[оуи]\w*)\s+)?(?:\b(?:last|past|previous|прошл\w*)\s+)?"
    r"\b(?P<day>(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri)(?:day)?|saturday|sunday)(?:'s)?"
    r"|понедельник\w*|вторник\w*|сред[ауые]|четверг\w*|пятниц[ауые]|суббот[ауые]|"
    r"воскресень[ея]|пятничн\w*|субботн\w*|воскресн\w*)\b",
    re.IGNORECASE,
)
# "2 days ago", "a week ago", «3 дня назад», «неделю назад».
_COUNTS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "один": 1,
    "одну": 1,
    "два": 2,
    "две": 2,
    "три": 3,
    "четыре": 4,
    "пять": 5,
    "шесть": 6,
    "семь": 7,
}
_DAYS_AGO = re.compile(
    r"(?:\b(?P<n>\d{1,2}|[a-zа-я]+)\s+)?(?P<unit>days?|weeks?|дн[яей]|день|"
    r"недел[ьюи]\w*)\s+(?:ago|назад)\b(?:\s+today\b)?",
    re.IGNORECASE,
)
# "on the 21st", "the 7th", «21-го», «21 числа»: that day of this month, or of the last
# month when it is still ahead.
_ORDINAL_DAY = re.compile(
    r"\b(?:on\s+)?the\s+(?P<n>\d{1,2})(?:st|nd|rd|th)\b"
    r"(?:\s+of\s+(?:the|this)\s+month\b|(?!\s+of\b))"
    r"|\b(?P<n2>\d{1,2})-?(?:го|е)?\s+числа\b|\b(?P<n3>\d{1,2})-го\b"
    # «десятого числа», «двадцать пятого числа», "the tenth of the month"
    r"|\b(?P<w>(?:(?:двадцать|тридцать)\s+)?[а-яё]+(?:ого|го))\s+числа\b"
    r"|\bthe\s+(?P<w2>(?:(?:twenty|thirty)[\s-])?[a-z]+)\s+of\s+(?:the|this)\s+"
    r"month\b",
    re.IGNORECASE,
)


def _weekday_number(word: str) -> int:
    lowered = word.lower()
    for number, stem in enumerate(_RU_WEEKDAYS):
        if lowered.startswith(stem):
            return number
    return next(n for n, stem in enumerate(_EN_WEEKDAYS) if lowered.startswith(stem))


def _weekday_before(today: date, weekday: int, *, this_week: bool = False) -> date:
    back = (today.weekday() - weekday) % 7
    if back == 0 and not this_week:
        back = 7
    return today - timedelta(days=back)


def _day_of_month_before(today: date, number: int) -> date | None:
    year, month = today.year, today.month
    for _tries in range(2):  # this month, then the last
        try:
            then = date(year, month, number)
        except ValueError:
            then = None
        if then is not None and then <= today:
            return then
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return None


_MONTH_PREPOSITIONS = {"in", "of", "for", "since", "from", "until", "during", "early", "late", "mid"}


def month_number(word: str) -> int | None:
    word = word.lower().rstrip(".")
    if word in _EN_MONTHS:
        return _EN_MONTHS[word]
    for stem, number in _RU_MONTHS:
        if re.fullmatch(f"{stem}[а-я]{{0,3}}", word):
            return number
    return None


def dates_in(text: str, *, today: date) -> list[DateMention]:
    """Days and months the text names. "May" and "March" alone count as months
    only after a preposition or before a year ("in May", not "may I")."""
    text = text or ""
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []

    def add(mention: DateMention) -> None:
        if any(s < mention.end and mention.start < e for s, e in taken):
            return
        taken.append((mention.start, mention.end))
        found.append(mention)

    for m in _ISO.finditer(text):
        if 1 <= int(m[2]) <= 12 and 1 <= int(m[3]) <= 31:
            add(DateMention(int(m[2]), int(m[3]), int(m[1]), m.start(), m.end()))
    for m in _DOTTED.finditer(text):
        day, month = int(m[1]), int(m[2])
        if 1 <= month <= 12 and 1 <= day <= 31:
            year = int(m[3]) if m[3] else None
            if year is not None and year < 100:
                year += 2000
            add(DateMention(month, day, year, m.start(), m.end()))
    for m in _DAY_MONTH.finditer(text):
        named = month_number(m[2])
        if named and 1 <= int(m[1]) <= 31:
            add(DateMention(named, int(m[1]), int(m[3]) if m[3] else None, m.start(), m.end()))
    for word in _WORD.finditer(text):  # each word may start one: matches may overlap
        spelt = _WORD_DAY_MONTH.match(text, word.start())
        before = text[: word.start()].split()[-1:]
        if before and before[0].lower() in _TENS:
            continue  # «тридцать второго»: the whole number, or none
        if spelt and not spelt["of"] and _EN_ORDINAL_WORD.match(spelt["day"]):
            continue  # "the second October payment" is a position; "the second of October" a day
        if spelt and (named := month_number(spelt["month"])) and (number := _ordinal_number(spelt["day"])):
            add(DateMention(named, number, None, spelt.start(), spelt.end()))
    for m in _MONTH_DAY.finditer(text):
        named = month_number(m[1])
        if named and 1 <= int(m[2]) <= 31:
            add(DateMention(named, int(m[2]), int(m[3]) if m[3] else None, m.start(), m.end()))
    for m in _PARTS_OF_DAY.finditer(text):
        then = today - timedelta(days=2 if m["before"] else 0 if m["today"] else 1)
        add(DateMention(then.month, then.day, then.year, m.start(), m.end()))
    for word in _WORD.finditer(text):
        lowered = word.group(0).lower()
        if re.search(r"\b(?:ago|назад)\s+$", text[: word.start()], re.IGNORECASE):
            continue  # "a week ago today" is a week ago (_DAYS_AGO)
        for stem, days in _RELATIVE.items():
            if lowered == stem or (stem.endswith("н") and lowered.startswith(stem)):
                then = today - timedelta(days=days)
                add(DateMention(then.month, then.day, then.year, word.start(), word.end()))
    for m in _WEEKDAY.finditer(text):
        then = _weekday_before(today, _weekday_number(m["day"]), this_week=bool(m["this"]))
        add(DateMention(then.month, then.day, then.year, m.start(), m.end()))
    for m in _DAYS_AGO.finditer(text):
        said = (m["n"] or "").lower()
        count = int(said) if said.isdigit() else _COUNTS.get(said)
        unit = m["unit"].lower()
        if count is None:  # "days ago", "a few days ago": no day; "неделю назад": one week
            if unit not in ("day", "week", "день", "неделю"):
                continue
            count = 1
        days = count * (7 if unit.startswith(("week", "недел")) else 1)
        then = today - timedelta(days=days)
        add(DateMention(then.month, then.day, then.year, m.start(), m.end()))
    for m in _ORDINAL_DAY.finditer(text):
        digits = m["n"] or m["n2"] or m["n3"]
        number = int(digits) if digits else _ordinal_number(m["w"] or m["w2"])
        if number is None:
            continue
        on_day = _day_of_month_before(today, number)
        if on_day is not None:
            add(DateMention(on_day.month, on_day.day, on_day.year, m.start(), m.end()))
    for pattern, back in ((_LAST_MONTH, 1), (_THIS_MONTH, 0)):
        for m in pattern.finditer(text):
            first = today.replace(day=1)
            start = (first - timedelta(days=1)).replace(day=1) if back else first
            add(DateMention(start.month, None, start.year, m.start(), m.end()))
    for m in _MONTH_ALONE.finditer(text):
        named = month_number(m[1])
        if named is None:
            continue
        before = text[: m.start()].split()[-1:]
        if m[1].lower() in ("may", "march", "mar") and not (
            m[2] or (before and before[0].lower() in _MONTH_PREPOSITIONS)
        ):
            continue
        add(DateMention(named, None, int(m[2]) if m[2] else None, m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


# "last week", "this weekend", «на прошлой неделе», «на выходных»: a run of days.
_WEEKS = re.compile(
    r"\b(?:(?P<this>this|current|эт[оуиа]\w*|текущ\w*)|(?P<last>last|past|previous|прошл\w*"
    r"|предыдущ\w*))?\s*(?:(?P<week>week|недел[еяюи])|(?P<weekend>weekend|выходн(?:ые|ых)))"
    r"(?:'s)?\b",
    re.IGNORECASE,
)


# "Tuesday last week", «во вторник на прошлой неделе», "last week on Friday": that day of
# the calendar week before this one.
_WEEKDAY_WORD = (
    r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri)(?:day)?|saturday|sunday"
    r"|понедельник\w*|вторник\w*|сред[ауые]|четверг\w*|пятниц[ауые]|суббот[ауые]"
    r"|воскресень[ея])"
)
_LAST_WEEK = (
    r"(?:(?:of|from|на)\s+)?(?:the\s+)?(?:last|previous|past|прошл\w*|предыдущ\w*)"
    r"\s+(?:week|недел[еяюи])(?:'s)?"
)
_WEEKDAY_LAST_WEEK = re.compile(
    rf"\b(?:(?:on|во?)\s+)?(?P<d1>{_WEEKDAY_WORD})\s+(?:on\s+)?{_LAST_WEEK}\b"
    rf"|\b{_LAST_WEEK}\s+(?:(?:on|во?)\s+)?(?P<d2>{_WEEKDAY_WORD})\b",
    re.IGNORECASE,
)


# "in the summer", «летом», «летний заказ», "last autumn": the latest such season begun.
# (An English season only after "in", "over", "this", "last"…: "the fall of the price",
# "a winter jacket" are not times.)
_SEASONS = re.compile(
    r"\b(?:(?:in|over|during)\s+(?:the\s+)?|(?:this|last|past)\s+)(?P<season>summer|autumn"
    r"|fall|winter|spring)\b"
    r"|\b(?:(?:этим|прошлым)\s+)?(?P<ru>лет(?:ом|н\w+)|осен(?:ью|н\w+)|зим(?:ой|н\w+)|весной"
    r"|весенн\w+)\b",
    re.IGNORECASE,
)
_SEASON_MONTHS = {
    "summer": 6,
    "лет": 6,
    "autumn": 9,
    "fall": 9,
    "осен": 9,
    "winter": 12,
    "зим": 12,
    "spring": 3,
    "весн": 3,
    "весен": 3,
}


def _season_days(word: str, today: date) -> tuple[date, ...]:
    """The days of the latest season of that name begun by today (three months)."""
    first_month = next(m for stem, m in _SEASON_MONTHS.items() if word.lower().startswith(stem))
    year = today.year if (today.month, today.day) >= (first_month, 1) else today.year - 1
    start = date(year, first_month, 1)
    end_month = first_month + 3
    end = date(year + (end_month > 12), (end_month - 1) % 12 + 1, 1)
    last = min(end - timedelta(days=1), today)
    return tuple(start + timedelta(days=n) for n in range((last - start).days + 1))


def weeks_in(text: str, *, today: date) -> list[tuple[int, int, tuple[date, ...]]]:
    """The runs of days a text names by week or season: (start, end, days). Where people mean two
    things, both are in ("last week": the calendar week before this one, and the last
    seven days; "the weekend": the last one, or the one before if this one is under way).
    A weekday said with "last week" is that one day of the week before this one."""
    found: list[tuple[int, int, tuple[date, ...]]] = []
    monday = today - timedelta(days=today.weekday())
    text = text or ""
    for m in _WEEKDAY_LAST_WEEK.finditer(text):
        day = monday - timedelta(days=7) + timedelta(days=_weekday_number(m["d1"] or m["d2"]))
        found.append((m.start(), m.end(), (day,)))
        text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    for m in _SEASONS.finditer(text):
        found.append((m.start(), m.end(), _season_days(m["season"] or m["ru"], today)))
    for m in _WEEKS.finditer(text):
        if m["week"] and not (m["this"] or m["last"]):
            continue  # "a week ago", «неделю назад» are days (dates_in); "week" alone is none
        if m["week"]:
            first = monday if m["this"] else min(monday - timedelta(days=7), today - timedelta(days=7))
            last = today if m["this"] else today - timedelta(days=1)
            days = tuple(first + timedelta(days=n) for n in range((last - first).days + 1))
        else:
            saturday = monday + timedelta(days=5)
            if m["this"]:
                weekends = [saturday]
            else:  # the last whole or begun weekend; "last weekend" may be the one before too
                latest = saturday if saturday <= today else saturday - timedelta(days=7)
                weekends = [latest] + ([latest - timedelta(days=7)] if m["last"] else [])
            days = tuple(sorted(d for sat in weekends for d in (sat, sat + timedelta(days=1)) if d <= today))
        if days:
            found.append((m.start(), m.end(), days))
    return found


def normalised(text: str) -> str:
    """NFKC, with every invisible character (accounts.text: zero-width, bidi controls,
    soft hyphens, variation selectors, fillers, tags) removed."""
    return without_hidden(unicodedata.normalize("NFKC", text or ""))
