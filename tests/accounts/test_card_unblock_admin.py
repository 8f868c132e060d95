"""Unblocking from the Card admin: an action with a note field, for support staff only.
Nobody — superusers included — changes a card's status by editing the field."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages

from accounts.models import Card, CardUnblock
from accounts.services import card_block

CARDS = "/admin/accounts/card/"


@pytest.fixture
def blocked_card(alice) -> Card:
    card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())
    return Card.objects.get(account__customer=alice, last4="4242")


def unblock(client, card: Card, note: str):
    return client.post(CARDS, {"action": "unblock", "_selected_action": [card.pk], "note": note, "index": 0})


def told(response) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]


def test_it_offers_staff_the_unblock_action_with_a_note_field(client, staff, blocked_card):
    client.force_login(staff)

    page = client.get(CARDS).content.decode()

    assert '<option value="unblock">' in page
    assert 'name="note"' in page


def test_it_unblocks_with_a_note_and_says_so(client, staff, blocked_card):
    client.force_login(staff)

    response = unblock(client, blocked_card, "Customer called from the registered number")

    assert response.status_code == 302
    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.ACTIVE
    record = CardUnblock.objects.get()
    assert (record.staff_user, record.note) == (staff, "Customer called from the registered number")
    assert told(response) == [("success", f"{blocked_card} is unblocked; your note is on record.")]


def test_it_refuses_to_unblock_without_a_note(client, staff, blocked_card):
    client.force_login(staff)

    response = unblock(client, blocked_card, "")

    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.BLOCKED
    assert not CardUnblock.objects.exists()
    [(level, message)] = told(response)
    assert level == "error"
    assert "Write a note" in message


def test_it_shows_the_unblock_history_on_the_card_page(client, staff, blocked_card):
    client.force_login(staff)
    unblock(client, blocked_card, "Found in the car")

    page = client.get(f"{CARDS}{blocked_card.pk}/change/").content.decode()

    assert "Found in the car" in page


def test_it_hides_the_action_from_staff_without_the_permission(client, blocked_card):
    intern = get_user_model().objects.create_user(username="intern", password="pw-intern-1", is_staff=True)
    client.force_login(intern)

    response = unblock(client, blocked_card, "Let me")

    assert response.status_code == 403
    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.BLOCKED


def test_it_sends_a_customer_to_the_admin_login(client, alice, blocked_card):
    client.force_login(alice.user)

    response = unblock(client, blocked_card, "Unblock my own card")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert Card.objects.get(pk=blocked_card.pk).status == Card.Status.BLOCKED
    assert not CardUnblock.objects.exists()


def test_it_keeps_the_status_out_of_reach_of_a_superuser_edit(admin_client, blocked_card):
    response = admin_client.post(
        f"{CARDS}{blocked_card.pk}/change/",
        {
            "account": blocked_card.account_id,
            "brand": "Visa",
            "last4": "4242",
            "status": "active",
            "blocked_at": "",
            "unblocks-TOTAL_FORMS": "0",
            "unblocks-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 302
    card = Card.objects.get(pk=blocked_card.pk)
    assert card.status == Card.Status.BLOCKED
    assert card.blocked_at is not None


def test_it_lets_a_superuser_unblock_with_a_note(admin_client, admin_user, blocked_card):
    unblock(admin_client, blocked_card, "Fraud team cleared it")

    assert CardUnblock.objects.get().staff_user == admin_user
