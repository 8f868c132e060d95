"""Support staff in Django admin: they see the queue and customers' data, change only
disputes; customers have no way in."""

from __future__ import annotations

import pytest

from accounts.models import Card, Customer, Transaction


@pytest.mark.parametrize(
    ("url", "shows"),
    [
        ("/admin/disputes/dispute/", "D-"),
        ("/admin/accounts/transaction/", "T-1003"),
        ("/admin/accounts/customer/", "Alice Akhmetova"),
        ("/admin/accounts/card/", "4242"),
    ],
)
def test_it_shows_staff_the_changelists(staff_client, dispute, bob, url, shows):
    response = staff_client.get(url)

    assert response.status_code == 200
    assert shows in response.content.decode()


def test_it_shows_staff_the_dispute_in_the_queue(staff_client, dispute):
    response = staff_client.get("/admin/disputes/dispute/")

    assert dispute.reference in response.content.decode()


def test_it_forbids_staff_to_add_a_customer(staff_client):
    response = staff_client.get("/admin/accounts/customer/add/")

    assert response.status_code == 403


def test_it_forbids_staff_to_change_a_customer(staff_client, alice):
    response = staff_client.post(
        f"/admin/accounts/customer/{alice.pk}/change/",
        {"user": alice.user_id, "full_name": "Mallory"},
    )

    assert response.status_code == 403
    assert Customer.objects.get(pk=alice.pk).full_name == "Alice Akhmetova"


def test_it_forbids_staff_to_change_a_card_or_transaction(staff_client, alice):
    card = Card.objects.get(last4="4242")
    txn = Transaction.objects.get(reference="T-1001")

    card_response = staff_client.post(f"/admin/accounts/card/{card.pk}/change/", {"status": "blocked"})
    txn_response = staff_client.post(f"/admin/accounts/transaction/{txn.pk}/change/", {"amount": "1.00"})

    assert card_response.status_code == 403
    assert txn_response.status_code == 403
    assert Card.objects.get(pk=card.pk).status == Card.Status.ACTIVE
    assert Transaction.objects.get(pk=txn.pk).amount == 15000


def test_it_redirects_a_customer_away_from_admin(client, alice):
    client.force_login(alice.user)

    response = client.get("/admin/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_it_redirects_an_anonymous_visitor_to_the_admin_login(client, db):
    response = client.get("/admin/disputes/dispute/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
