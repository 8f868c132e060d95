"""The statement page (customer issue, points 5 and 8): a disputed row says its
dispute's status and offers no second "Dispute…" while that dispute is open; a row's
button opens the chat with the action started there, as a confirm card nothing runs
without; at phone width the table reflows into cards that need no sideways scroll."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from bankbot.models import Conversation
from tests.browser.helpers import PASSWORD
from tests.browser.test_accessibility import assert_accessible, chat_with_everything, in_language, sign_in
from tests.factories import days_ago
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def row_of(page: Page, reference: str) -> Locator:
    """The row whose Reference cell is this (another row's description may name it)."""
    return page.locator(".statement-rows tbody tr", has=page.locator("code", has_text=reference))


MONTH = f"{timezone.localdate(days_ago(5)):%Y-%m}"  # T-1001's
MONTH_1003 = f"{timezone.localdate(days_ago(10)):%Y-%m}"
SAYS = {
    "en": {"status": "Dispute being reviewed", "confirm": "Please confirm this action"},
    "ru": {"status": "Спор", "confirm": "Подтвердите действие"},
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_disputed_row_shows_its_status_and_no_second_dispute(
    browser: Browser, server, alice, staff, language
):
    chat_with_everything(alice, staff)  # T-1001's dispute, moved to "in review"
    page = in_language(browser, server, language)
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.goto(server(f"/statement/?month={MONTH}"))
    row = row_of(page, "T-1001")
    expect(row.locator(".dispute-status")).to_contain_text(SAYS[language]["status"])
    expect(row.locator("form.operation")).to_have_count(0)
    page.goto(server(f"/statement/?month={MONTH_1003}"))
    other = row_of(page, "T-1003")
    expect(other.locator("form.operation button")).to_have_count(1)
    expect(other.locator(".dispute-status")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_rows_button_opens_the_chat_with_the_card(browser: Browser, server, alice, staff, language):
    older = chat_with_everything(alice, staff)
    page = in_language(browser, server, language)
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.goto(server(f"/statement/?month={MONTH_1003}"))
    row_of(page, "T-1003").locator("form.operation button").click()
    card = page.locator(".proposal--pending", has_text="T-1003")
    expect(card).to_be_visible(timeout=30_000)
    expect(card).to_contain_text(SAYS[language]["confirm"])
    assert "/c/" in page.url and str(older.public_id) not in page.url  # a conversation of its own
    proposal = Proposal.objects.get(status=Proposal.Status.PENDING, args__transaction="T-1003")
    assert proposal.conversation != older
    assert proposal.conversation.public_id.hex in page.url.replace("-", "")
    assert Conversation.objects.filter(customer=alice).count() == 2


def test_the_statement_at_phone_width_reflows_and_passes_axe(browser: Browser, server, alice, staff):
    chat_with_everything(alice, staff)
    page: Page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.goto(server(f"/statement/?month={MONTH}"))
    table = page.locator(".statement-rows").first
    expect(table).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    wrap = page.locator(".statement-page .table-wrap").first
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    row = row_of(page, "T-1001")
    for part in (row.get_by_text("T-1001"), row.get_by_text("Magnum"), row.locator(".dispute-status")):
        part.scroll_into_view_if_needed()
        expect(part).to_be_in_viewport()
    assert_accessible(page, "statement at phone width")
