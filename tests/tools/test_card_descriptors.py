"""A card described, not numbered, binds when the description fits one card the
operation applies to: "my debit card", «кредитку», "the virtual one", "the gold card".
Two cards that fit are buttons, never a guess (G7)."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from accounts.models import Card
from tests.factories import make_customer
from tools.mandate import Grant, Unbound, mandate_for

pytestmark = pytest.mark.django_db

LABELS = {
    "4242": "Visa Debit",
    "5505": "Mastercard Credit",
    "3391": "Visa Virtual",
    "6006": "Mastercard Gold",
}


@pytest.fixture
def dana():
    customer = make_customer("dana", "Dana Nurlanovna", "KZ86125KZT5004100500", list(LABELS), [])
    for last4, label in LABELS.items():
        Card.objects.filter(last4=last4).update(brand=label)
    Card.objects.filter(last4="6006").update(
        status="blocked",
        blocked_at=timezone.now(),
        blocked_by=Card.BlockedBy.CUSTOMER,
        block_key=uuid.uuid4(),
    )
    return customer


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("block my debit card", "4242"),
        ("please freeze my credit card, I left it at the restaurant", "5505"),
        ("block the virtual one", "3391"),
        ("block my Mastercard", "5505"),  # the gold one is blocked already
        ("заблокируйте кредитку", "5505"),
        ("заблокируйте дебетовую карту", "4242"),
        ("заблочьте виртуалку", "3391"),
        ("unblock my gold card", "6006"),
        ("разблокируйте золотую карту", "6006"),
    ],
)
def test_a_described_card_binds_when_one_card_fits(dana, text, card):
    mandate = mandate_for(customer=dana, text=text)
    assert [g.target for g in mandate.grants] == [card] and not mandate.unbound
    assert isinstance(mandate.grants[0], Grant)


def test_two_cards_that_fit_the_description_are_buttons_not_a_guess(dana):
    mandate = mandate_for(customer=dana, text="block my Visa")
    assert not mandate.grants
    (unbound,) = mandate.unbound
    assert isinstance(unbound, Unbound) and set(unbound.candidates) == {"4242", "3391"}


def test_a_description_no_card_has_grants_nothing(dana):
    mandate = mandate_for(customer=dana, text="block my platinum credit card 4242")
    assert not mandate.grants  # 4242 is a debit card: the customer's words disagree


def test_a_description_never_reaches_another_customers_card(dana):
    make_customer("erlan", "Erlan", "KZ86125KZT5004100501", ["1111"], [])
    Card.objects.filter(last4="1111").update(brand="Visa Virtual")
    mandate = mandate_for(customer=dana, text="block the virtual card")
    assert [g.target for g in mandate.grants] == ["3391"]


@pytest.fixture
def dana_paid(dana):
    from datetime import timedelta
    from decimal import Decimal

    from accounts.models import Transaction

    account = dana.accounts.get()
    cards = {c.last4: c for c in Card.objects.filter(account=account)}
    now = timezone.now()
    for reference, days, merchant, card in [
        ("T-7001", 1, "Yandex Go", "4242"),
        ("T-7002", 2, "Magnum Cash&Carry", "5505"),
        ("T-7003", 17, "Netflix", "3391"),
    ]:
        Transaction.objects.create(
            account=account,
            card=cards[card],
            reference=reference,
            posted_at=now - timedelta(days=days),
            amount=Decimal("1000.00"),
            merchant=merchant,
        )
    return dana


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("block the card I used at Magnum", "5505"),
        ("заблокируйте карту, с которой списывается нетфликс", "3391"),
        ("block the card I paid with yesterday", "4242"),
        ("block the Visa I use for online shopping", "3391"),
        ("заблокируйте пластиковую визу", "4242"),
    ],
)
def test_a_card_described_by_its_use_binds_to_the_card_that_paid(dana_paid, text, card):
    assert [g.target for g in mandate_for(customer=dana_paid, text=text).grants] == [card]


def test_digits_win_over_a_day_that_describes_the_loss(dana_paid):
    mandate = mandate_for(customer=dana_paid, text="I lost my card two days ago, block 4242")
    assert [g.target for g in mandate.grants] == ["4242"]


def test_a_use_no_card_of_the_operation_fits_is_buttons(dana_paid):
    # Magnum was paid with 5505, which is active: there is nothing of it to unblock.
    mandate = mandate_for(customer=dana_paid, text="unblock the card I used at Magnum")
    assert not mandate.grants
