"""Which of the payments that fit: "the earlier Magnum charge", "the bigger one",
«второй кофе вчера», "the afternoon one". The choice applies only to payments the
customer described otherwise; a position that does not exist grants nothing (G7)."""

from __future__ import annotations

import pytest

from tools.mandate import mandate_for

pytestmark = pytest.mark.django_db

# cara's Magnum rows: T-3003 15000.00 (10 days ago), T-3008 7300.00 (20 days ago).


@pytest.mark.parametrize(("text", "reference"), [
    ("dispute the earlier Magnum charge", "T-3008"),
    ("dispute the first of the two Magnum payments", "T-3008"),
    ("dispute the last Magnum charge", "T-3003"),
    ("dispute the later Magnum one", "T-3003"),
    ("dispute the bigger Magnum charge", "T-3003"),
    ("оспорьте меньший платеж в магнуме", "T-3008"),
    ("оспорьте последний платеж в магнуме", "T-3003"),
    ("dispute the last Acme Food charge", "T-3001"),  # one of them: that one
])
def test_the_payment_said_among_those_that_fit_binds(cara, text, reference):
    assert [g.target for g in mandate_for(customer=cara, text=text).grants] == [reference]


@pytest.mark.parametrize("text", [
    "dispute the second one",  # described by nothing else
    "dispute the third Magnum charge",  # there are two
    "dispute the second Acme Food charge",  # there is one
    "dispute the bigger Acme Food charge",  # bigger than what?
])
def test_a_choice_that_names_no_payment_grants_nothing(cara, text):
    assert not mandate_for(customer=cara, text=text).grants
