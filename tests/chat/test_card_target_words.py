"""The confirm card and the disputes table name what they are about (customer issue, point
4): a dispute's card shows the transaction's merchant, date and amount, a block's card
the card's brand, the disputes table each disputed transaction's merchant, all in the
page's language; the reason picker asks in natural Russian."""

from __future__ import annotations

import uuid

import pytest
from django.utils import formats, timezone, translation

from accounts.models import Transaction
from bankbot.cards import disputes_shown, proposal_card
from disputes.services import dispute_open
from tests.factories import days_ago, make_proposal

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "transaction": "Transaction",
        "merchant": "Merchant",
        "date": "Date",
        "amount": "Amount",
        "card": "Card",
        "money": "15,000.00\u00a0₸",
        "another_reason": "Another reason?",
    },
    "ru": {
        "transaction": "Операция",
        "merchant": "Продавец",
        "date": "Дата",
        "amount": "Сумма",
        "card": "Карта",
        "money": "15\u00a0000,00\u00a0₸",
        "another_reason": "Другая причина?",
    },
}


def the_day(language: str) -> str:
    """T-1001's day (five days ago) as the tables write it in that language."""
    with translation.override(language):
        return formats.date_format(timezone.localdate(days_ago(5)), "j M Y")


def dispute_proposal(conversation):
    return make_proposal(
        conversation, "raise_dispute", transaction="T-1001", amount="15000.00", reason="not_recognised"
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_dispute_card_names_the_merchant_the_date_and_the_amount(alice_conversation, language):
    words = WORDS[language]
    proposal = dispute_proposal(alice_conversation)

    with translation.override(language):
        card = proposal_card(proposal)

    assert card.rows[:4] == [
        (words["transaction"], "T-1001"),
        (words["merchant"], "Magnum Cash&Carry"),
        (words["date"], the_day(language)),
        (words["amount"], words["money"]),
    ]
    assert card.picker is not None and card.picker.question == words["another_reason"]


HEADLINE = {
    "en": "Dispute 15,000.00\u00a0₸ at Magnum Cash&Carry on {day} — T-1001",
    "ru": "Оспорить 15\u00a0000,00\u00a0₸ в Magnum Cash&Carry от {day} — T-1001",
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_dispute_cards_headline_says_amount_merchant_date_and_reference(alice_conversation, language):
    proposal = dispute_proposal(alice_conversation)

    with translation.override(language):
        card = proposal_card(proposal)

    assert card.said == HEADLINE[language].format(day=the_day(language))
    # The record staff read is the English summary, unchanged.
    assert proposal.summary.startswith("Dispute ") and "T-1001" in proposal.summary
    assert proposal.summary != card.said


def test_a_dispute_headline_shows_the_merchants_hidden_characters(alice_conversation):
    Transaction.objects.filter(reference="T-1001").update(merchant="Mag\u202enum")
    with translation.override("en"):
        card = proposal_card(dispute_proposal(alice_conversation))
    assert "\u202e" not in card.said and "Mag" in card.said


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_block_card_names_the_cards_brand(alice_conversation, language):
    with translation.override(language):
        card = proposal_card(make_proposal(alice_conversation, card="4242"))

    assert card.rows == [(WORDS[language]["card"], "Visa •••• 4242")]


def test_the_merchants_hidden_characters_show_on_the_card(alice_conversation):
    Transaction.objects.filter(reference="T-1001").update(merchant="Mag\u202enum")

    card = proposal_card(dispute_proposal(alice_conversation))

    assert ("Merchant", "Mag⟨U+202E⟩num") in card.rows


def test_the_russian_card_has_no_half_translated_label(browser_for, alice, alice_conversation):
    proposal = dispute_proposal(alice_conversation)
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})

    html = client.get(f"/proposals/{proposal.public_id}/", HTTP_HX_REQUEST="true").content.decode()

    assert "Другая причина?" in html
    assert "Выбрать другое" not in html and "(причина)" not in html
    assert "Продавец" in html and "Magnum Cash&amp;Carry" in html and the_day("ru") in html


@pytest.mark.parametrize(
    ("language", "question", "heading"),
    [("en", "show my disputes", "Merchant"), ("ru", "покажи мои споры", "Продавец")],
)
def test_the_disputes_table_names_each_transactions_merchant(
    browser_for, alice, alice_conversation, language, question, heading
):
    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000.00",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    )
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    client.post(
        "/messages/",
        {
            "conversation": str(alice_conversation.public_id),
            "text": question,
            "client_message_id": uuid.uuid4().hex,
        },
    )

    html = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    table = html[html.index('class="txn-table disputes"') :]
    table = table[: table.index("</table>")]
    assert f">{heading}</th>" in table
    assert "Magnum Cash&amp;Carry" in table and the_day(language) in table and "T-1001" in table


def test_the_disputes_table_names_only_the_customers_own_transactions(alice, bob):
    rows = [{"dispute_id": "D-1", "transaction": "T-1001"}]

    assert disputes_shown(rows, alice)[0]["merchant"] == "Magnum Cash&Carry"
    assert "merchant" not in disputes_shown(rows, bob)[0]  # T-1001 is Alice's
    assert disputes_shown(rows, None) == rows
