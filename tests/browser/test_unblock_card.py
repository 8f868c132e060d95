"""Alice blocked card 5505 herself: Unblock… next to it asks for the unblock, and her
click on Confirm makes the card active again. The bank blocked card 9009: no
Unblock… next to it. In English and in Russian (the RU switch in the top bar)."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import Card
from accounts.services import card_block
from tests.browser.helpers import PASSWORD, send, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "show": "Show my cards",
        "unblock": "Unblock…",
        "confirm": "Confirm",
        "own": "Unblock card ending 5505…",
        "bank": "Unblock card ending 9009…",
        "asked": "Unblock card Visa •••• 5505",
        "done": "Card Visa •••• 5505 is unblocked.",
    },
    "ru": {
        "show": "Покажи мои карты",
        "unblock": "Разблокировать…",
        "confirm": "Подтвердить",
        "own": "Разблокировать карту с окончанием 5505…",
        "bank": "Разблокировать карту с окончанием 9009…",
        "asked": "Разблокировать карту •••• 5505",
        "done": "Карта Visa •••• 5505 разблокирована.",
    },
}


@pytest.fixture
def blocked_cards(alice) -> None:
    card_block(customer=alice, last4="5505", idempotency_key=uuid.uuid4())
    Card.objects.create(
        account=alice.accounts.get(),
        last4="9009",
        status=Card.Status.BLOCKED,
        blocked_at=timezone.now(),
        blocked_by=Card.BlockedBy.BANK,
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_she_unblocks_the_card_she_blocked_and_not_the_one_the_bank_blocked(
    page: Page, server, alice, blocked_cards, language
):
    words = WORDS[language]
    sign_in(page, server, "alice", PASSWORD["alice"])
    if language == "ru":
        page.get_by_role("button", name="RU").click()
        expect(page.locator("html")).to_have_attribute("lang", "ru")
    send(page, words["show"])

    cards = page.locator(".card-list").last
    own = cards.locator(".bank-card", has_text="5505")
    bank = cards.locator(".bank-card", has_text="9009")
    expect(own.get_by_role("button", name=words["own"])).to_have_text(words["unblock"])
    expect(bank).to_be_visible()
    expect(bank.get_by_role("button")).to_have_count(0)  # the bank's block: no button at all
    expect(page.get_by_role("button", name=words["bank"])).to_have_count(0)

    own.get_by_role("button", name=words["own"]).click()
    card = page.locator(".proposal--pending")
    expect(card).to_contain_text(words["asked"])
    assert Card.objects.get(last4="5505").status == Card.Status.BLOCKED  # nothing before the click

    card.get_by_role("button", name=words["confirm"]).click()
    expect(page.locator(".proposal--executed")).to_contain_text(words["done"])
    assert Card.objects.get(last4="5505").status == Card.Status.ACTIVE
    assert Card.objects.get(last4="9009").status == Card.Status.BLOCKED
