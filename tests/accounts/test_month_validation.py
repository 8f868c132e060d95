"""A month the customer (or the model) gives is YYYY-MM, or a helpful invalid_month error."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.selectors import parse_month, statement_for_month, transactions_find
from errors import InvalidInput
from tests.factories import days_ago

MALFORMED = [
    "2026-13",
    "26-10",
    "October",
    "",
    "2026-1",
    "2026-00",
    "2026/10",
    "2026-10-01",
    "   ",
    "0999-10",
    None,
]


@pytest.mark.parametrize("month", MALFORMED)
def test_it_refuses_a_malformed_month_with_a_sentence(alice, month):
    with pytest.raises(InvalidInput) as caught:
        statement_for_month(customer=alice, month=month)

    error = caught.value
    assert error.code == "invalid_month"
    assert "YYYY-MM" in error.message
    assert "2026-10" in error.message  # an example the reader can copy
    assert error.message.endswith(".")
    assert error.as_dict() == {"code": "invalid_month", "message": error.message}


@pytest.mark.parametrize("month", ["2026-13", "October", "2026-1"])
def test_it_refuses_a_malformed_month_when_finding_transactions(alice, month):
    with pytest.raises(InvalidInput) as caught:
        transactions_find(customer=alice, month=month)

    assert caught.value.code == "invalid_month"


@pytest.mark.parametrize(
    ("text", "year", "month"),
    [("2026-10", 2026, 10), ("2026-01", 2026, 1), (" 2025-12 ", 2025, 12)],
)
def test_it_accepts_a_well_formed_month(text, year, month):
    parsed = parse_month(text)

    assert (parsed.year, parsed.month) == (year, month)


@pytest.mark.parametrize("month", ["9999-12", "1899-12", "0000-01"])
def test_it_refuses_a_month_out_of_range_with_a_sentence(alice, month):
    for read in (statement_for_month, transactions_find):
        with pytest.raises(InvalidInput) as caught:
            read(customer=alice, month=month)
        assert caught.value.code == "invalid_month"
        assert "write a month from 1900-01 to 9998-12 as YYYY-MM" in caught.value.message


@pytest.mark.parametrize("number", [2, 10**30])
def test_it_refuses_a_page_past_the_last_with_a_sentence(alice, number):
    month = f"{timezone.localdate(days_ago(5)):%Y-%m}"
    with pytest.raises(InvalidInput) as caught:
        statement_for_month(customer=alice, month=month, page=number)
    assert caught.value.code == "invalid_page"
    assert caught.value.message == f"The statement for {month} has 1 page; ask for a page from 1 to 1."
