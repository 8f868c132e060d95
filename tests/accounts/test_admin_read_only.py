"""What accounts/admin.py promises, held for a superuser: money, references, a card's
account and digits, and whose login a customer is are never edited from admin; a
transaction is the bank's record and is only looked at there."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model

from accounts.models import Account, Card, Customer, Transaction

pytestmark = pytest.mark.django_db

# The fields no one edits once the object exists, per model.
FROZEN = {
    Card: {"account", "last4", "brand", "status", "blocked_at"},
    Account: {"customer", "number", "balance"},
    Customer: {"user"},
}
# An inline's management form, as the card's page posts it (no unblock records).
NO_UNBLOCKS = {
    "unblocks-TOTAL_FORMS": "0",
    "unblocks-INITIAL_FORMS": "0",
    "unblocks-MIN_NUM_FORMS": "0",
    "unblocks-MAX_NUM_FORMS": "1000",
}


@pytest.mark.parametrize("model", list(FROZEN))
def test_the_frozen_fields_are_read_only_for_a_superuser(rf, admin_user, alice, model):
    request = rf.get("/")
    request.user = admin_user
    obj = model.objects.filter(
        **{Card: {"last4": "4242"}, Account: {"customer": alice}, Customer: {"pk": alice.pk}}[model]
    ).first()
    readonly = set(admin.site._registry[model].get_readonly_fields(request, obj))
    assert FROZEN[model] <= readonly


def test_a_superuser_cannot_move_a_card_or_change_its_digits(admin_client, alice, bob):
    card = Card.objects.get(account__customer=alice, last4="4242")
    url = f"/admin/accounts/card/{card.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert 'name="last4"' not in page and 'name="account"' not in page

    admin_client.post(
        url,
        {"account": Account.objects.get(customer=bob).pk, "last4": "9999", "brand": "Visa", **NO_UNBLOCKS},
    )
    card.refresh_from_db()
    assert (card.account.customer, card.last4) == (alice, "4242")


def test_a_superuser_adds_no_card(admin_client, alice):
    assert admin_client.get("/admin/accounts/card/add/").status_code == 403
    admin_client.post(
        "/admin/accounts/card/add/",
        {"account": Account.objects.get(customer=alice).pk, "last4": "7777", "brand": "Visa", **NO_UNBLOCKS},
    )
    assert not Card.objects.filter(last4="7777").exists()


def test_a_superuser_cannot_set_an_accounts_balance_when_adding_it(admin_client, alice):
    page = admin_client.get("/admin/accounts/account/add/").content.decode()
    assert 'name="balance"' not in page

    admin_client.post(
        "/admin/accounts/account/add/",
        {"customer": alice.pk, "number": "KZ86125KZT5004100999", "balance": "1000000.00"},
    )
    added = Account.objects.filter(number="KZ86125KZT5004100999").first()
    assert added is None or added.balance == Decimal("0.00")


def test_a_superuser_only_looks_at_a_transaction(admin_client, alice):
    txn = Transaction.objects.get(reference="T-1001")
    url = f"/admin/accounts/transaction/{txn.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert 'name="_save"' not in page and 'name="amount"' not in page
    assert admin_client.post(url, {"amount": "1.00", "reference": "T-1001"}).status_code == 403
    assert admin_client.get("/admin/accounts/transaction/add/").status_code == 403
    assert (
        admin_client.post(f"/admin/accounts/transaction/{txn.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert Transaction.objects.get(pk=txn.pk).amount == txn.amount  # there, and unchanged


def test_a_superuser_cannot_give_a_customer_another_login(admin_client, alice):
    mallory = get_user_model().objects.create_user(username="mallory", password="m-pw-12345!")
    url = f"/admin/accounts/customer/{alice.pk}/change/"
    assert 'name="user"' not in admin_client.get(url).content.decode()

    admin_client.post(url, {"user": mallory.pk, "full_name": "Alice Akhmetova"})
    assert Customer.objects.get(pk=alice.pk).user == alice.user
