"""Amounts as customers type them are read to their value, and never to a wrong one:
"20k", "8,4к", "20 тыщ", "3 косаря", "полторы тыщи" (accounts/money.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.money import amount_values, amounts_in, ends_in_currency


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("20k", "20000"),
        ("1.2k", "1200"),
        ("8,4к", "8400"),
        ("5к", "5000"),
        ("20 тыщ", "20000"),
        ("74 тыс", "74000"),
        ("3 косаря", "3000"),
        ("косарь", "1000"),
        ("полторы тыщи", "1500"),
        ("полтора косаря", "1500"),
        ("2 ляма", "2000000"),
        ("eight thousand four hundred", "8400"),
        ("12 350 tenge", "12350"),
        ("74 grand", "74000"),
        # a price said aloud, its thousand unsaid
        ("восемь четыреста", "8400"),
        ("двадцать три семьсот шестьдесят", "23760"),
        ("сто двадцать", "120"),
        ("двести пятьдесят тысяч", "250000"),
    ],
)
def test_it_reads_the_amount_people_write(text, value):
    assert amount_values(text, min_bare=1) == {Decimal(value).quantize(Decimal("0.01"))}


def test_a_cyrillic_k_after_a_space_is_a_preposition_not_a_thousand():
    assert amount_values("в 5 к обеду", min_bare=1) == {Decimal("5.00")}


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("платёж на 74 с чем-то тысячи", "74000", "75000"),
        ("74 с лишним тыс", "74000", "75000"),
        ("the 74-odd thousand charge", "74000", "75000"),
        ("86 тысяч", "85500", "86500"),
    ],
)
def test_somewhere_in_a_thousand_is_a_range(text, low, high):
    (mention,) = amounts_in(text, years=False)
    assert (mention.value - mention.slack, mention.value + mention.slack) == (Decimal(low), Decimal(high))


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("₸ 15 000", True),
        ("KZT\u00a015000", True),
        ("тенге\n 250", True),
        ("тг. 300", True),
        ("ekzt 400", True),  # as the pattern always read it: no boundary before the currency
        ("tenges 500", False),
        ("₸, 600", False),
        ("15 000", False),
        ("in June 700", False),
    ],
)
def test_a_currency_written_before_the_number_is_read_back_from_it(text, currency):
    """The currency before a number ("₸ 15 000") is read back from the number, not by
    searching the whole text before it for each number (a streamed answer's check
    reads its text again and again): the same verdict as that search."""
    import re

    from accounts.money import _CURRENCY, _currency_before

    end = re.search(r"\d", text).start()
    assert _currency_before(text, end) is currency
    assert bool(re.search(rf"{_CURRENCY}\s*$", text[:end], re.IGNORECASE)) is currency
    mention = next(m for m in amounts_in(text, min_bare=1) if m.start == end)
    assert mention.with_currency is currency


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("тг. ", True),
        ("тг.", True),
        ("тенге\n", True),
        ("KZT  ", True),
        ("₸", True),
        ("hello ", False),
        ("8 ", False),
    ],
)
def test_a_text_ending_in_a_currency_says_so_whatever_space_follows(text, ends):
    # The stream check holds a sentence open after "тг. " so that the figure on the next
    # piece is read as money (found by the stream property test after two branches met).
    assert ends_in_currency(text) is ends


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("оспорьте ту, что тысяч на двадцать", "20000.00"),
        ("тыщ на 20 списали", "20000.00"),
        ("тысяч двадцать пять", "25000.00"),
        ("тысяч на сто пятьдесят", "150000.00"),
    ],
)
def test_a_scale_said_before_its_number_is_about_that_many_thousands(text, value):
    (said,) = amounts_in(text)
    assert said.value == Decimal(value) and said.slack > 0  # "about": a rounded figure


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("восемь тысяч четыреста", "8400.00"),
        ("20 тысяч на продукты", "20000.00"),
    ],
)
def test_a_scale_in_its_place_is_read_as_before(text, value):
    assert [m.value for m in amounts_in(text)] == [Decimal(value)]
