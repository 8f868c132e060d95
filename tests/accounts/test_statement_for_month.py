"""statement_for_month: one customer's rows of one calendar month, paginated, with totals."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import Transaction
from accounts.selectors import statement_for_month
from errors import InvalidInput
from tests.accounts.helpers import add, local


def references(rows: list[Transaction]) -> list[str]:
    return [row.reference for row in rows]


def test_it_returns_only_the_rows_of_that_month(alice):
    add(alice, "T-5001", local(2025, 2, 28, 23, 59, 59), "100.00")
    add(alice, "T-5002", local(2025, 3, 1, 0, 0, 0), "200.00")
    add(alice, "T-5003", local(2025, 3, 31, 23, 59, 59), "300.00")
    add(alice, "T-5004", local(2025, 4, 1, 0, 0, 0), "400.00")

    statement = statement_for_month(customer=alice, month="2025-03")

    assert references(statement.transactions) == ["T-5002", "T-5003"]
    assert statement.count == 2
    assert statement.total == Decimal("500.00")
    assert str(statement.month) == "2025-03"


def test_it_ends_december_at_the_new_year(alice):
    add(alice, "T-5011", local(2025, 12, 31, 23, 59, 59), "100.00")
    add(alice, "T-5012", local(2026, 1, 1, 0, 0, 0), "200.00")

    december = statement_for_month(customer=alice, month="2025-12")
    january = statement_for_month(customer=alice, month="2026-01")

    assert references(december.transactions) == ["T-5011"]
    assert references(january.transactions) == ["T-5012"]


def test_it_leaves_out_another_customers_rows_of_the_same_month(alice, bob):
    add(alice, "T-5021", local(2025, 3, 10, 12), "100.00")
    add(bob, "T-5022", local(2025, 3, 10, 12), "9999.00")

    statement = statement_for_month(customer=alice, month="2025-03")

    assert references(statement.transactions) == ["T-5021"]
    assert statement.count == 1
    assert statement.total == Decimal("100.00")


def test_it_pages_a_month_but_counts_and_totals_all_of_it(alice):
    amounts = ["0.10", "0.20", "1000000.01", "2500.50", "7.19"]
    for day, amount in enumerate(amounts, start=1):
        add(alice, f"T-51{day:02d}", local(2025, 5, day, 12), amount)

    pages = [statement_for_month(customer=alice, month="2025-05", page=n, page_size=2) for n in (1, 2, 3)]

    assert [len(p.transactions) for p in pages] == [2, 2, 1]
    assert [p.has_more for p in pages] == [True, True, False]
    assert {p.count for p in pages} == {5}
    assert {p.total for p in pages} == {Decimal("1002508.00")}
    seen = [ref for p in pages for ref in references(p.transactions)]
    assert seen == ["T-5101", "T-5102", "T-5103", "T-5104", "T-5105"]


def test_it_says_there_is_no_more_when_the_page_is_exactly_full(alice):
    add(alice, "T-5201", local(2025, 6, 1, 12), "10.00")
    add(alice, "T-5202", local(2025, 6, 2, 12), "20.00")

    statement = statement_for_month(customer=alice, month="2025-06", page_size=2)

    assert len(statement.transactions) == 2
    assert statement.has_more is False


def test_it_returns_totals_as_exact_decimals(alice):
    add(alice, "T-5301", local(2025, 7, 1, 12), "0.10")
    add(alice, "T-5302", local(2025, 7, 2, 12), "0.20")

    statement = statement_for_month(customer=alice, month="2025-07")

    assert isinstance(statement.total, Decimal)
    assert statement.total == Decimal("0.30")
    assert all(isinstance(row.amount, Decimal) for row in statement.transactions)


def test_it_totals_an_empty_month_as_a_decimal_zero(alice):
    statement = statement_for_month(customer=alice, month="2019-01")

    assert statement.transactions == []
    assert statement.count == 0
    assert statement.has_more is False
    assert isinstance(statement.total, Decimal)
    assert statement.total == Decimal("0.00")


@pytest.mark.parametrize("page_number", [0, -1])
def test_it_refuses_a_page_before_the_first(alice, page_number):
    with pytest.raises(InvalidInput) as caught:
        statement_for_month(customer=alice, month="2025-03", page=page_number)

    assert caught.value.code == "invalid_page"
