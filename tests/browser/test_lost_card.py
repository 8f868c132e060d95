"""A lost or stolen card (customer issue, point 7): the block is proposed with the card,
the answer says what blocking does and where a replacement is ordered, and an expired
card offers one click to ask again, which proposes afresh and carries nothing out. Said
only as a loss ("I lost my card 4242"), the block is proposed all the same; once
confirmed, the card says it is blocked, what that means and where a replacement is ordered."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import Card
from tests.browser.helpers import PASSWORD, send, sign_in
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "connected": "Connected",
        "ask": "I lost my card 4242, block it",
        "next": "order a replacement in the bank's app or at a branch",
        "expired": "This confirmation has expired",
        "again": "Ask again",
        "lost": "I lost my card 4242",
        "confirm": "Confirm",
        "blocked": "Card Visa •••• 4242 is blocked.",
        "found": "If you find the card, you can unblock it here.",
        "replacement": "For a new card, order a replacement in the bank's app or at a branch",
    },
    "ru": {
        "connected": "На связи",
        "ask": "Я потерял карту 4242, заблокируйте её",
        "next": "закажите в приложении банка или в отделении",
        "expired": "Срок подтверждения истёк",
        "again": "Попросить снова",
        "lost": "Я потеряла карту 4242",
        "confirm": "Подтвердить",
        "blocked": "Карта Visa •••• 4242 заблокирована.",
        "found": "Если карта найдётся, её можно разблокировать здесь.",
        "replacement": "Новую карту закажите в приложении банка или в отделении",
    },
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_lost_card_is_proposed_with_what_comes_next_and_asked_again_when_expired(
    browser, server, alice, lang
):
    says = SAYS[lang]
    page = alice_signed_in(browser, server, lang)
    send(page, says["ask"])
    expect(page.locator(".proposal--pending")).to_contain_text("4242")
    expect(page.locator(".bubble").last).to_contain_text(says["next"])

    first = Proposal.objects.get()
    Proposal.objects.filter(pk=first.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    page.reload()
    expired = page.locator(".proposal--expired")
    expect(expired).to_contain_text(says["expired"])
    expired.get_by_role("button", name=says["again"]).click()

    # Asked again as the customer's message: a new card to confirm, nothing carried out.
    expect(page.locator(".proposal--pending")).to_contain_text("4242")
    expect(page.locator(".msg--customer").filter(has_text=says["ask"])).to_have_count(2)
    assert Proposal.objects.count() == 2
    assert not Proposal.objects.filter(status="executed").exists()
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_card_said_lost_is_proposed_and_once_confirmed_says_where_a_replacement_is_ordered(
    browser, server, alice, lang
):
    says = SAYS[lang]
    page = alice_signed_in(browser, server, lang)
    send(page, says["lost"])

    # A confirm card for that card, not a question back with a button for each card.
    pending = page.locator(".proposal--pending")
    expect(pending).to_contain_text("4242")
    expect(page.locator(".bubble").last).to_contain_text(says["next"])
    assert Proposal.objects.get().args == {"card": "4242"}

    pending.get_by_role("button", name=says["confirm"]).click()
    executed = page.locator(".proposal--executed")
    for sentence in ("blocked", "found", "replacement"):
        expect(executed).to_contain_text(says[sentence])
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED
    assert Card.objects.get(last4="5505").status == Card.Status.ACTIVE
    page.context.close()


def alice_signed_in(browser, server, lang: str) -> Page:
    """Alice's chat in a context of its own, in ``lang``, its socket connected."""
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])
    return page
