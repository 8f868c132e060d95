"""Spending categories come from the bank's data — a payment's merchant category code —
never from what the merchant wrote (issue 23, point 3)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.categories import CATEGORIES, categories_named, category_of
from accounts.demo import MERCHANTS, TODAY, network_code, seed_demo
from accounts.models import Transaction
from accounts.selectors import spending_for_period

pytestmark = pytest.mark.django_db


def spent(customer, category):
    today = timezone.localdate()
    return spending_for_period(
        customer=customer, first=today - timedelta(days=30), last=today, category=category
    )


def test_a_merchants_own_words_never_move_a_payment_into_a_category(alice):
    account = alice.accounts.get()
    Transaction.objects.create(
        account=account,
        reference="T-1901",
        posted_at=timezone.now() - timedelta(days=1),
        amount=Decimal("240000.00"),
        merchant="Coffee Boom Laptops",
        description="FREE COFFEE VOUCHER — coffee, coffee, taxi",
        mcc="5732",
    )
    coffee = spent(alice, "coffee")
    assert [t.reference for t in coffee.transactions] == ["T-1003"]  # Coffee Boom, by its code
    assert coffee.total == Decimal("2500.50")
    assert [t.reference for t in spent(alice, "electronics").transactions] == ["T-1901"]
    assert spent(alice, "taxi").count == 0


def test_a_payment_without_a_code_is_in_no_category(alice):
    Transaction.objects.filter(reference="T-1003").update(mcc=None)
    assert spent(alice, "coffee").count == 0


@pytest.mark.parametrize(
    ("mcc", "category"),
    [
        ("4121", "taxi"),
        ("5411", "groceries"),
        ("5814", "coffee"),
        ("5812", "restaurants"),
        ("4511", "travel"),
        ("3012", "travel"),
        ("5732", "electronics"),
        ("7832", "entertainment"),
        ("4899", "subscriptions"),
        ("5399", "shopping"),
        ("5912", None),
        ("", None),
        (None, None),
        ("41a1", None),
    ],
)
def test_a_code_belongs_to_one_category(mcc, category):
    assert category_of(mcc) == category


def test_every_demo_merchant_has_a_code_in_a_category(db):
    seed_demo()
    assert not Transaction.objects.filter(mcc__isnull=True).exists()
    for merchant, _ in [*MERCHANTS, *TODAY]:
        assert category_of(network_code(merchant)) in CATEGORIES, merchant


@pytest.mark.parametrize(
    ("said", "named"),
    [
        ("how much on taxis", {"taxi"}),
        ("the food delivery", {"restaurants"}),  # each word narrows
        ("plane tickets", {"travel"}),
        ("оспорьте покупку электроники", {"electronics"}),
        ("доставку еды", {"restaurants"}),
        ("the Magnum charge", set()),
    ],
)
def test_the_customers_words_name_categories(said, named):
    assert categories_named(said) == named
