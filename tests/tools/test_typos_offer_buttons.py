"""A misspelt verb ("blcok", «оспорте», «заблокирутйе») opens the buttons of what it
means and never grants (G7: a fuzzy match is never a mandate); a correct form of an
operation's word that is not a command ("blocked", «заблокирована») offers nothing."""

from __future__ import annotations

import pytest

from tools.catalog.block_card import NAME as BLOCK_CARD
from tools.catalog.raise_dispute import NAME as RAISE_DISPUTE
from tools.grammar import misspelt_operation
from tools.mandate import mandate_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("word", "operation"),
    [
        ("blcok", BLOCK_CARD),
        ("dispuet", RAISE_DISPUTE),
        ("unbock", "unblock_card"),
        ("заблакируйте", BLOCK_CARD),
        ("оспорте", RAISE_DISPUTE),
        ("заблокирутйе", BLOCK_CARD),
        ("розблокируйте", "unblock_card"),
    ],
)
def test_a_misspelt_verb_means_its_operation(word, operation):
    assert misspelt_operation(word) == operation


@pytest.mark.parametrize(
    "word",
    [
        "blocked",
        "blocking",
        "disputed",
        "заблокирована",
        "оспорила",
        "заблокирует",
        "block",
        "оспорьте",
        "clock",
    ],
)
def test_a_form_or_a_neighbour_word_is_no_misspelling(word):
    assert misspelt_operation(word) is None


def test_a_misspelt_request_offers_its_buttons_and_grants_nothing(cara):
    mandate = mandate_for(customer=cara, text="pls blcok 5505")
    assert not mandate.grants
    (offer,) = mandate.unbound
    assert offer.operation == BLOCK_CARD and offer.problem == "unsure"
    assert offer.candidates[0] == "5505"


def test_a_misspelt_dispute_offers_the_described_payment(cara):
    mandate = mandate_for(customer=cara, text="оспорте T-3009")
    assert not mandate.grants
    assert "T-3009" in mandate.unbound[0].candidates


@pytest.mark.parametrize("text", ["Моя карта заблокирована.", "don't blcok 4242", "did you blcok 4242?"])
def test_a_state_a_refusal_or_a_question_offers_nothing(cara, text):
    mandate = mandate_for(customer=cara, text=text)
    assert not mandate.grants and not mandate.unbound
