"""Every selector reads the acting customer's rows only (G1), and another customer's
row is reported exactly like one that does not exist."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import Transaction
from accounts.selectors import (
    card_get,
    cards_for_customer,
    statement_for_month,
    transaction_get,
    transactions_find,
)
from errors import NotFound

BOB_REFERENCES = {"T-2001", "T-2002"}
BOB_CARDS = {"1111", "2222"}


def test_it_finds_only_alices_transactions(alice, bob):
    found = transactions_find(customer=alice, limit=100)

    assert {t.reference for t in found} == {"T-1001", "T-1002", "T-1003", "T-1004"}


def test_it_does_not_find_bobs_transactions_by_his_merchant_or_amount(alice, bob):
    assert transactions_find(customer=alice, merchant="Yandex") == []
    assert transactions_find(customer=alice, amount=Decimal("43000.00")) == []
    # The same filters do find bob's rows for bob: the filters are not simply broken.
    assert [t.reference for t in transactions_find(customer=bob, merchant="Yandex")] == ["T-2001"]


def test_it_keeps_bobs_rows_out_of_alices_statement(alice, bob):
    bob_month = timezone.localtime(Transaction.objects.get(reference="T-2001").posted_at)

    statement = statement_for_month(customer=alice, month=f"{bob_month:%Y-%m}")

    assert not {t.reference for t in statement.transactions} & BOB_REFERENCES


def test_it_lists_only_alices_cards(alice, bob):
    assert [c.last4 for c in cards_for_customer(customer=alice)] == ["4242", "5505"]


def test_it_gets_alices_own_transaction_and_card(alice, bob):
    assert transaction_get(customer=alice, reference="t-1001 ").reference == "T-1001"
    assert card_get(customer=alice, last4="4242").last4 == "4242"


@pytest.mark.parametrize("reference", sorted(BOB_REFERENCES))
def test_it_does_not_get_bobs_transaction(alice, bob, reference):
    with pytest.raises(NotFound):
        transaction_get(customer=alice, reference=reference)


@pytest.mark.parametrize("last4", sorted(BOB_CARDS))
def test_it_does_not_get_bobs_card(alice, bob, last4):
    with pytest.raises(NotFound):
        card_get(customer=alice, last4=last4)


def _not_found(call, reference: str) -> tuple[str, str]:
    with pytest.raises(NotFound) as caught:
        call(reference)
    return caught.value.code, caught.value.message.replace(reference, "<ref>")


def test_it_reports_bobs_transaction_like_a_missing_one(alice, bob):
    def call(ref):
        return transaction_get(customer=alice, reference=ref)

    assert _not_found(call, "T-2001") == _not_found(call, "T-9999")


def test_it_reports_bobs_card_like_a_missing_one(alice, bob):
    def call(last4):
        return card_get(customer=alice, last4=last4)

    assert _not_found(call, "1111") == _not_found(call, "9999")
