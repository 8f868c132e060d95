"""The judge's own reader of figures: amounts as people write them.

Digits grouped any common way ("15 000", "15,000", "1.480.000", "27 700,50"), with a
scale ("1.48m", "1,48 млн", "1.2k", "2,5 тыс.", "3 bn", "2 млрд", "1.5 million") and a
currency before or after ("₸15,000", "15 000 ₸", "$1.48m", "KZT 4200"), or in words,
English or Russian ("fifteen thousand tenge", «пятнадцати тысяч», «полтора миллиона»).

Written apart from the bank's reader (``accounts.money``), which the answer check
(``bankbot/output_checks.py``) uses: a judge that read figures with the checker's code
would miss exactly what the checker misses, and call the guard perfect.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")

_GROUPING = " \u00a0\u202f\u2009'"
# A number: digits in groups of three after single separators, with decimals, or a
# plain run of digits with decimals. Not inside a word, a reference or another number.
_NUMBER = re.compile(
    r"(?<![\w.,\-/:#№•*+@])"
    r"(?P<n>\d{1,3}(?:[ \u00a0\u202f\u2009'.,]\d{3})+(?:[.,]\d{1,2}(?!\d))?|\d+(?:[.,]\d+)?)"
)
# What may follow a number's digits: a scale (letters attached, or a word), then a currency.
_SCALE = re.compile(
    r"(?P<scale>[kкKК](?![\w])|[mMмМ](?![\w])|[bB](?![\w])|mn\b|mln\b|bn\b|млн\.?|млрд\.?"
    r"|[ \u00a0](?:k|K|mn|mln|bn|млн\.?|млрд\.?|тыс\.?|thousand|million|billion)(?![\w])"
    r"|[ \u00a0]?(?:тыс\.?|тысяч\w*|тыщ\w*|миллион\w*|миллиард\w*|thousands?\b|millions?\b|billions?\b))",
)
_CURRENCY_WORDS = (
    r"₸|\$|€|₽|£|kzt\b|usd\b|eur\b|rub\b|тг\b\.?|тнг\b|тенге|tenge\w*|dollars?\b|euros?\b"
    r"|руб\w*|долл\w*|евро\b"
)
_CURRENCY_AFTER = re.compile(rf"[ \u00a0]?(?:{_CURRENCY_WORDS})", re.IGNORECASE)
_CURRENCY_BEFORE = re.compile(rf"(?:{_CURRENCY_WORDS})[ \u00a0]?$", re.IGNORECASE)
_LONGEST_CURRENCY = 8

# A bare number followed by one of these counts something else: "120 days", "3 cards".
NOT_MONEY_AFTER = re.compile(
    r"\s*(?:%|percent|per cent|процент|days?\b|дн|день|months?\b|месяц|hours?\b|час|minutes?\b|мин"
    r"|cards?\b|карт|transactions?\b|транзакц|операц|times\b|раз\b|characters?\b|символ"
    r"|years?\b|год|лет\b|steps?\b|шаг)",
    re.IGNORECASE,
)

# Digits that are not amounts, blanked before reading: dates, months, times, references
# (T-1001, D-881, P-1), account numbers (KZ86…), card masks (•••• 4242).
NOT_AMOUNTS = re.compile(
    r"\b\d{4}-\d{2}(?:-\d{2})?\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b"
    r"|(?<![\w-])[A-ZА-Я]{1,2}-\d+\b|\b[A-Z]{2}\d{2}[A-Z0-9]{8,30}\b|(?:[•*●xX]{2,}[ \u00a0]?)\d{4}\b"
)


@dataclass(frozen=True)
class Figure:
    value: Decimal
    text: str  # as written: the number, its scale and a currency after it
    start: int
    end: int
    bare: bool  # digits alone: no decimals, scale, currency or words


def figures_in(text: str) -> list[Figure]:
    """Every amount-like figure in ``text``, digits or words, with where it was written."""
    blanked = NOT_AMOUNTS.sub(lambda m: " " * len(m.group(0)), text)
    found = list(_digit_figures(blanked))
    for figure in found:
        blanked = blanked[: figure.start] + " " * (figure.end - figure.start) + blanked[figure.end :]
    found += _word_figures(blanked)
    return sorted(found, key=lambda f: f.start)


def _digit_figures(text: str) -> Iterator[Figure]:
    for match in _NUMBER.finditer(text):
        raw, end = match["n"], match.end()
        scale = _SCALE.match(text, end)
        unit = _scale_value(scale["scale"]) if scale else 1
        if scale:
            end = scale.end()
        currency = _CURRENCY_AFTER.match(text, end)
        if currency:
            end = currency.end()
        if end < len(text) and (text[end].isalnum() or text[end] == "_"):
            continue  # "4242abc", "3d": part of something else
        value = _digits_value(raw, scaled=unit != 1)
        if value is None:
            continue
        before = text[max(0, match.start() - _LONGEST_CURRENCY) : match.start()]
        has_currency = bool(currency) or bool(_CURRENCY_BEFORE.search(before))
        bare = unit == 1 and not has_currency and raw.isdigit()
        yield Figure(
            (value * unit).quantize(CENT), text[match.start() : end].strip(), match.start(), end, bare
        )


def _scale_value(word: str) -> int:
    word = word.strip().lower()
    if word.startswith(("млрд", "миллиард", "b")):
        return 10**9
    if word.startswith(("m", "м")):
        return 1_000_000
    return 1000  # k, к, тыс, тысяч, тыщ, thousand


def _digits_value(raw: str, *, scaled: bool) -> Decimal | None:
    """ "15 000" and "15,000" are 15000, "2 050,00" and "2,050.00" 2050, "1,48" 1.48;
    a single "," or "." before exactly three digits groups thousands, unless a scale
    follows ("1,480 млн" is 1.48 million)."""
    digits = raw
    for space in _GROUPING:
        digits = digits.replace(space, "")
    marks = [(i, c) for i, c in enumerate(digits) if c in ".,"]
    if marks:
        last_at, last = marks[-1]
        decimals = len(digits) - last_at - 1
        single = sum(1 for _, c in marks if c == last) == 1
        decimal_mark = single and (decimals != 3 or scaled or len(marks) > 1)
        whole = digits[:last_at] if decimal_mark else digits
        fraction = digits[last_at + 1 :] if decimal_mark else ""
        digits = re.sub(r"[.,]", "", whole) + ("." + fraction if fraction else "")
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


# --- in words ----------------------------------------------------------------------

_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
)
_EN_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
_EN_WORDS = {
    **{word: value for value, word in enumerate(_EN_UNITS.split(" "))},
    **{word: value * 10 for value, word in enumerate(_EN_TENS.split(" "), 2)},
}
# Russian numerals by stem, every case: «пятнадцать», «пятнадцати», «пятнадцатью».
_RU_STEMS: list[tuple[str, int]] = [
    (r"нол[ьяюе]|нул[ьяюе]", 0),
    (r"один|одна|одно|одного|одной|одному|одним|одном|одну", 1),
    (r"два|две|двух|двум|двумя", 2),
    (r"три|тр[её]х|тр[её]м|тремя", 3),
    (r"четыре|четыр[её]х|четыр[её]м|четырьмя", 4),
    (r"пять|пяти|пятью", 5),
    (r"шесть|шести|шестью", 6),
    (r"семь|семи", 7),
    (r"восемь|восьми|восемью|восьмью", 8),
    (r"девять|девяти|девятью", 9),
    (r"десять|десяти|десятью", 10),
    (r"одиннадцат\w*", 11),
    (r"двенадцат\w*", 12),
    (r"тринадцат\w*", 13),
    (r"четырнадцат\w*", 14),
    (r"пятнадцат\w*", 15),
    (r"шестнадцат\w*", 16),
    (r"семнадцат\w*", 17),
    (r"восемнадцат\w*", 18),
    (r"девятнадцат\w*", 19),
    (r"двадцат\w*", 20),
    (r"тридцат\w*", 30),
    (r"сорок|сорока", 40),
    (r"пятьдесят|пятидесят\w*", 50),
    (r"шестьдесят|шестидесят\w*", 60),
    (r"семьдесят|семидесят\w*", 70),
    (r"восемьдесят|восьмидесят\w*", 80),
    (r"девяносто|девяноста", 90),
    (r"сто|ста", 100),
    (r"двести|двухсот\w*", 200),
    (r"триста|тр[её]хсот\w*", 300),
    (r"четыреста|четыр[её]хсот\w*", 400),
    (r"пятьсот|пятисот\w*", 500),
    (r"шестьсот|шестисот\w*", 600),
    (r"семьсот|семисот\w*", 700),
    (r"восемьсот|восьмисот\w*", 800),
    (r"девятьсот|девятисот\w*", 900),
]
_RU_WORDS = [(re.compile(rf"(?:{stem})$"), value) for stem, value in _RU_STEMS]
_SCALE_WORDS = [
    (re.compile(r"(?:thousands?|тысяч\w*|тыщ\w*)$"), 1000),
    (re.compile(r"(?:millions?|миллион\w*)$"), 1_000_000),
    (re.compile(r"(?:billions?|миллиард\w*)$"), 10**9),
]
_ONE_AND_A_HALF = re.compile(r"(?:полтора|полторы|полутора)$")
_WORD = re.compile(r"[a-zа-яё]+", re.IGNORECASE)
_JOINERS = frozenset({"and", "и"})


def _word_kind(word: str) -> tuple[str, Decimal] | None:
    word = word.lower()
    if word in ("a", "an"):
        return "article", Decimal(1)  # "a thousand tenge"; "a refund" says no number
    if word in _EN_WORDS:
        return "unit", Decimal(_EN_WORDS[word])
    if word in ("hundred", "hundreds"):
        return "hundred", Decimal(100)
    if _ONE_AND_A_HALF.match(word):
        return "unit", Decimal("1.5")
    for pattern, value in _SCALE_WORDS:
        if pattern.match(word):
            return "scale", Decimal(value)
    for pattern, value in _RU_WORDS:
        if pattern.match(word):
            return "unit", Decimal(value)
    return None


def _word_figures(text: str) -> Iterator[Figure]:
    """Runs of number words ("one thousand two hundred", «двадцать пять тысяч»), joined by
    spaces, hyphens or "and"/«и»; a run with a scale but no number ("thousands of") is no
    figure."""
    run: list[tuple[re.Match[str], str, Decimal]] = []
    last_end = -1
    for match in _WORD.finditer(text):
        kind = _word_kind(match.group(0))
        gap = text[last_end : match.start()] if last_end >= 0 else ""
        joined = run and re.fullmatch(r"[\s\-]*", gap) is not None
        if kind is not None and kind[0] == "article" and run:
            kind = None  # only a run's first word is an article
        if kind is None:
            if joined and match.group(0).lower() in _JOINERS:
                last_end = match.end()
                continue
            yield from _run_figure(text, run)
            run, last_end = [], -1
            continue
        if run and not joined:
            yield from _run_figure(text, run)
            run = []
        run.append((match, kind[0], kind[1]))
        last_end = match.end()
    yield from _run_figure(text, run)


def _run_figure(text: str, run: list[tuple[re.Match[str], str, Decimal]]) -> Iterator[Figure]:
    if run and run[0][1] == "article" and (len(run) == 1 or run[1][1] == "unit"):
        run = run[1:]  # "a fifteen thousand refund": the article is no number
    if not run or all(kind == "scale" for _, kind, _ in run):
        return
    total, current = Decimal(0), Decimal(0)
    for _, kind, value in run:
        if kind in ("unit", "article"):
            current += value
        elif kind == "hundred":
            current = (current or Decimal(1)) * 100
        else:
            total += (current or Decimal(1)) * value
            current = Decimal(0)
    value = total + current
    start, end = run[0][0].start(), run[-1][0].end()
    currency = _CURRENCY_AFTER.match(text, end)
    if currency:
        end = currency.end()
    if not currency and (value < 100 or NOT_MONEY_AFTER.match(text, end)):
        return  # "two cards", "one of them", "one hundred days"
    yield Figure(value.quantize(CENT), text[start:end].strip(), start, end, bare=False)
