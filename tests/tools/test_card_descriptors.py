"""A card described, not numbered, binds when the description fits one card the
operation applies to: "my debit card", «кредитку», "the virtual one", "the gold card".
Two cards that fit are buttons, never a guess (G7)."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from accounts.models import Card
from tests.conftest import make_customer
from tools.mandate import Grant, Unbound, mandate_for

pytestmark = pytest.mark.django_db

LABELS = {"4242": "Visa Debit", "5505": "Mastercard Credit", "3391": "Visa Virtual",
          "6006": "Mastercard Gold"}


@pytest.fixture
def dana():
    customer = make_customer("dana", "Dana Nurlanovna", "KZ86125KZT5004100500", list(LABELS), [])
    for last4, label in LABELS.items():
        Card.objects.filter(last4=last4).update(brand=label)
    Card.objects.filter(last4="6006").update(status="blocked", blocked_at=timezone.now(),
                                             blocked_by=Card.BlockedBy.CUSTOMER,
                                             block_key=uuid.uuid4())
    return customer


@pytest.mark.parametrize(("text", "card"), [
    ("block my debit card", "4242"),
    ("please freeze my credit card, I left it at the restaurant", "5505"),
    ("block the virtual one", "3391"),
    ("block my Mastercard", "5505"),  # the gold one is blocked already
    ("заблокируйте кредитку", "5505"),
    ("заблокируйте дебетовую карту", "4242"),
    ("заблочьте виртуалку", "3391"),
    ("unblock my gold card", "6006"),
    ("разблокируйте золотую карту", "6006"),
])
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
