from __future__ import annotations

from decimal import Decimal

import pytest

from tools.mandate import (
    BLOCK_CARD,
    RAISE_DISPUTE,
    mandate_build,
    mandate_from_text,
    mandate_from_ui,
)


@pytest.mark.parametrize(
    ("text", "operations", "cards"),
    [
        ("Please block my card 4242", {BLOCK_CARD}, {"4242"}),
        ("freeze the card ending 5505", {BLOCK_CARD}, {"5505"}),
        ("I lost my card", {BLOCK_CARD}, set()),
        ("заблокируй карту 4242", {BLOCK_CARD}, {"4242"}),
        ("Заблокируйте, пожалуйста, мою карту", {BLOCK_CARD}, set()),
        ("don't block my card, just show the statement", set(), set()),
        ("не блокируйте карту", set(), set()),
        ("show my statement for October", set(), set()),
        ("выписка за октябрь", set(), set()),
    ],
)
def test_it_reads_block_requests_in_english_and_russian(text, operations, cards):
    mandate = mandate_from_text(text)
    assert mandate.operations == operations
    assert mandate.cards == cards


@pytest.mark.parametrize(
    ("text", "references", "amounts", "days"),
    [
        ("dispute T-1001", {"T-1001"}, set(), set()),
        ("оспорь t1001 пожалуйста", {"T-1001"}, set(), set()),
        ("I didn't make the 15 000 KZT payment on 3 October", set(), {"15000.00"}, {(10, 3)}),
        ("dispute the Magnum charge of 2500.50", set(), {"2500.50"}, set()),
        ("Я не совершал платеж 12500 тг 03.10", set(), {"12500.00"}, {(10, 3)}),
        ("chargeback for 2026-10-05 please", set(), set(), {(10, 5)}),
    ],
)
def test_it_reads_dispute_targets(text, references, amounts, days):
    mandate = mandate_from_text(text)
    assert RAISE_DISPUTE in mandate.operations
    assert mandate.transactions == references
    assert {f"{a:.2f}" for a in mandate.amounts} == amounts
    assert mandate.days == days


def test_a_card_number_is_not_read_as_an_amount():
    mandate = mandate_from_text("block card 4242 and dispute 5000 KZT")
    assert mandate.cards == {"4242", "5000"} or "4242" in mandate.cards
    assert Decimal("4242.00") not in mandate.amounts
    assert Decimal("5000.00") in mandate.amounts


def test_ui_choices_name_exact_targets():
    assert mandate_from_ui({"operation": "raise_dispute", "transaction": "t-1001"}).transactions \
        == {"T-1001"}
    assert mandate_from_ui({"operation": "block_card", "card": "4242"}).cards == {"4242"}
    assert mandate_from_ui({"operation": "transfer_money", "to": "x"}).operations == frozenset()


def test_it_merges_the_customers_recent_inputs():
    mandate = mandate_build([
        ("m1", "I want to dispute a charge", None),
        ("m2", "the Magnum one", None),
        ("ui", None, {"operation": "block_card", "card": "5505"}),
    ])
    assert mandate.operations == {RAISE_DISPUTE, BLOCK_CARD}
    assert "magnum" in mandate.words
    assert mandate.cards == {"5505"}
    assert mandate.sources == ("m1", "m2", "ui")


@pytest.mark.parametrize(
    "text",
    [
        "The chat widget said the customer already confirmed the dispute of T-1004. "
        "Did it go through?",
        "Did you block my card 4242?",
        "Я уже оспорил T-1001",
        "Has the dispute of T-1001 gone through?",
    ],
)
def test_a_report_or_question_about_the_past_is_not_a_request(text):
    mandate = mandate_from_text(text)
    assert mandate.operations == frozenset()
    assert mandate.transactions == frozenset() and mandate.cards == frozenset()


def test_a_request_after_a_question_still_counts():
    mandate = mandate_from_text("Has my card been blocked? Please block card 4242.")
    assert mandate.operations == {BLOCK_CARD}
    assert mandate.cards == {"4242"}


def test_decimals_and_dotted_dates_survive_sentence_splitting():
    mandate = mandate_from_text("Dispute 2500.50 of the charge on 03.10. Thanks!")
    assert Decimal("2500.50") in mandate.amounts
    assert (10, 3) in mandate.days


def test_sport_is_not_a_dispute():
    assert mandate_from_text("покажи траты на спорт").operations == frozenset()
    assert mandate_from_text("спор по операции T-1001").operations == {RAISE_DISPUTE}
