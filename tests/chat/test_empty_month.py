"""On the 1st a bank app's current month is still empty: the statement says so and
offers the latest month that has transactions, in the customer's language."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

FIRST_OF_DECEMBER = "2026-12-01T00:30+05:00"  # Alice's newest payment is 5 days earlier


@pytest.fixture
def first_of_month(time_machine):
    time_machine.move_to(FIRST_OF_DECEMBER, tick=False)


def test_an_empty_current_month_says_so_and_offers_the_latest_month(first_of_month, browser_for, alice):
    html = browser_for(alice).get("/statement/").content.decode()

    assert "No transactions in December 2026 yet." in html
    assert 'href="/statement/?month=2026-11"' in html
    assert "Show November 2026, the latest month with transactions" in html


def test_an_empty_current_month_is_said_in_russian(first_of_month, browser_for, alice):
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/statement/"})

    html = client.get("/statement/").content.decode()

    assert "За декабрь 2026 операций пока нет." in html
    assert "Показать ноябрь 2026 — последний месяц с операциями" in html
    assert "No transactions" not in html


def test_an_empty_past_month_offers_the_latest_month_before_it(first_of_month, browser_for, alice):
    html = browser_for(alice).get("/statement/?month=2026-09").content.decode()

    assert "No transactions in September 2026." in html and "yet" not in html
    assert 'href="/statement/?month=2026-05"' in html  # T-1002, 200 days before


def test_a_month_before_any_transaction_offers_nothing(first_of_month, browser_for, alice):
    html = browser_for(alice).get("/statement/?month=2026-02").content.decode()

    assert "No transactions in February 2026." in html
    assert "latest month with transactions" not in html
