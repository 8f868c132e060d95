"""Which of the payments that fit: "the earlier Magnum charge", "the bigger one",
«второй кофе вчера», "the afternoon one". The choice applies only to payments the
customer described otherwise; a position that does not exist grants nothing (G7)."""

from __future__ import annotations

import pytest

from tools.mandate import mandate_for

pytestmark = pytest.mark.django_db

# cara's Magnum rows: T-3003 15000.00 (10 days ago), T-3008 7300.00 (20 days ago).


@pytest.mark.parametrize(
    ("text", "reference"),
    [
        ("dispute the earlier Magnum charge", "T-3008"),
        ("dispute the first of the two Magnum payments", "T-3008"),
        ("dispute the last Magnum charge", "T-3003"),
        ("dispute the later Magnum one", "T-3003"),
        ("dispute the bigger Magnum charge", "T-3003"),
        ("оспорьте меньший платеж в магнуме", "T-3008"),
        ("оспорьте последний платеж в магнуме", "T-3003"),
        ("dispute the last Acme Food charge", "T-3001"),  # one of them: that one
    ],
)
def test_the_payment_said_among_those_that_fit_binds(cara, text, reference):
    assert [g.target for g in mandate_for(customer=cara, text=text).grants] == [reference]


@pytest.mark.parametrize(
    "text",
    [
        "dispute the second one",  # described by nothing else
        "dispute the third Magnum charge",  # there are two
        "dispute the second Acme Food charge",  # there is one
        "dispute the bigger Acme Food charge",  # bigger than what?
    ],
)
def test_a_choice_that_names_no_payment_grants_nothing(cara, text):
    assert not mandate_for(customer=cara, text=text).grants


@pytest.mark.parametrize(
    ("text", "reference"),
    [
        # Said of the object the request points back at, in one clause before it.
        ("The later of my two Magnum payments, I don't recognise it, dispute please", "T-3003"),
        ("Из двух платежей в магнуме меньший не мой. Оспорьте его", "T-3008"),
    ],
)
def test_which_one_the_story_says_of_the_object_pointed_back_at_binds(cara, text, reference):
    assert [g.target for g in mandate_for(customer=cara, text=text).grants] == [reference]


@pytest.mark.parametrize(
    "text",
    [
        "The 2nd Magnum charge is a duplicate of the first, please dispute it",  # which of them?
        # two clauses each say one: which does "it" mean?
        "The first Magnum payment was in the shop, the later one online. Dispute it.",
        # the request names its own object; the story's choice is the story's
        "The earlier Magnum payment is fine. Dispute the Magnum charge.",
    ],
)
def test_which_one_said_twice_or_of_another_object_grants_nothing(cara, text):
    assert not mandate_for(customer=cara, text=text).grants


def test_three_hundred_and_fifty_is_one_number_not_two_clauses():
    from tools.grammar import _clauses

    assert _clauses("dispute the twelve thousand three hundred and fifty tenge order") == [
        "dispute the twelve thousand three hundred and fifty tenge order"
    ]
    assert len(_clauses("block 4242 and dispute the Wolt order")) == 2
