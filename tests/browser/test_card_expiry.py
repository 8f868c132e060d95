"""Cards tell the time (issue 15, point 5): a pending confirm card says when it
expires, counts down, and turns expired by itself, without a click."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, send, sign_in
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "ask": "Block my card 4242",
        "by": "Confirm by",
        "left": "min left",
        "under": "less than a minute left",
        "expired": "This confirmation has expired",
        "confirm": "Confirm",
        "connected": "Connected",
    },
    "ru": {
        "ask": "Заблокируй карту 4242",
        "by": "Подтвердите до",
        "left": "мин",
        "under": "осталось меньше минуты",
        "expired": "Срок подтверждения истёк",
        "confirm": "Подтвердить",
        "connected": "На связи",
    },
}


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", {"width": 1280, "height": 860}), ("ru", {"width": 390, "height": 844})]
)
def test_a_pending_card_counts_down_and_expires_by_itself(browser, server, alice, lang, viewport):
    says = SAYS[lang]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("#connection")).to_have_text(says["connected"])
    send(page, says["ask"])
    card = page.locator(".proposal--pending")
    expect(card).to_be_visible()
    proposal = Proposal.objects.get()
    expires = timezone.localtime(proposal.expires_at)
    expect(card.locator(".proposal__expiry")).to_contain_text(f"{says['by']} {expires:%H:%M}")
    expect(card.locator(".proposal__expiry")).to_contain_text(says["left"])

    # Its time nearly up: the page, loaded again, says so, then the card expires
    # while nobody touches it.
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() + timedelta(seconds=4))
    page.reload()
    expect(card.locator(".proposal__expiry")).to_contain_text(says["under"])
    expired = page.locator(".proposal--expired")
    expect(expired).to_contain_text(says["expired"], timeout=20_000)
    expect(expired.get_by_role("button", name=says["confirm"])).to_have_count(0)
    assert Proposal.objects.get().status == "pending"  # shown as expired; nothing was done
    context.close()
