"""A dispute's outcome arrives in the chat it came from: Alice disputes a row with its
Dispute… button and confirms; support moves the dispute in admin with a note for her;
her open chat shows the news at once, and the result card shows the new status."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from disputes.models import Dispute
from tests.browser.helpers import PASSWORD, send, sign_in
from tests.factories import days_ago

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "The shop refunded you; the money is back on your card."


def test_support_moving_her_dispute_reaches_her_open_chat(
    page: Page, browser: Browser, own_server, alice, staff
):
    server = own_server  # support writes through admin
    sign_in(page, server, "alice", PASSWORD["alice"])
    send(page, f"Show my statement for {timezone.localdate(days_ago(5)):%Y-%m}")
    row = page.locator(".txn-table tr", has_text="T-1001").last
    row.get_by_role("button", name="Dispute T-1001…").click()
    card = page.locator(".proposal--pending")
    expect(card).to_be_visible()
    card.get_by_role("button", name="Confirm").click()
    result = page.locator(".proposal--executed")
    expect(result).to_contain_text("is open")
    dispute = Dispute.objects.get()

    support = browser.new_context().new_page()
    support.goto(server("/login/"))
    support.get_by_label("Username").fill("support")
    support.get_by_label("Password").fill("support-pw-123")
    support.get_by_role("button", name="Sign in").click()
    expect(support).to_have_url(server("/admin/"))
    support.goto(server(f"/admin/disputes/dispute/{dispute.pk}/change/"))
    support.get_by_label("Move to").select_option("in_review")
    support.get_by_label("Note (required, goes on the record with your name)").fill("Asked the merchant.")
    support.get_by_label("Note for the customer").fill(NOTE)
    support.get_by_role("button", name="Record review step").click()
    expect(support.locator(".messagelist")).to_contain_text("moved from Opened to In review")

    news = page.locator(".msg--news")  # live, no reload
    expect(news).to_contain_text(f"Dispute {dispute.reference} is being reviewed.")
    expect(news).to_contain_text(NOTE)
    expect(result).to_contain_text("is being reviewed")  # the card, swapped in place
    page.reload()
    expect(page.locator(".msg--news")).to_contain_text(NOTE)
    expect(page.locator(".proposal--executed")).to_contain_text("is being reviewed")


WHERE_SHE_IS = {
    "en": {
        "connected": "Connected",
        "news": "is resolved in your favour.",
        "badge": "Dispute update",
        "link": "Open the conversation where you opened it",
    },
    "ru": {
        "connected": "На связи",
        "news": "решён в вашу пользу.",
        "badge": "Новое по спору",
        "link": "Открыть разговор, в котором вы его открыли",
    },
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_news_reaches_her_in_a_newer_conversation(browser: Browser, own_server, alice, staff, language):
    """Customer issue, point 3: she has moved on to a newer conversation; the news
    comes there, with a link to the conversation of the dispute, which the sidebar
    marks until she opens it; the statement row says the dispute's status."""
    from bankbot.models import Conversation
    from tests.browser.test_accessibility import assert_accessible, chat_with_everything, in_language
    from tests.browser.test_accessibility import sign_in as sign_in_any_language

    server, says = own_server, WHERE_SHE_IS[language]
    origin = chat_with_everything(alice, staff)  # T-1001 disputed there, now in review
    newer = Conversation.objects.create(customer=alice, title="Card limits")
    page = in_language(browser, server, language)
    sign_in_any_language(page, server, "alice", PASSWORD["alice"])
    page.goto(server(f"/c/{newer.public_id}/"))
    origin_entry = page.locator(
        ".conversation-list a", has=page.locator(f"#news-badge-{origin.public_id.hex}")
    )
    expect(origin_entry.locator(".badge--news")).to_have_text(says["badge"])  # "in review", not opened since
    page.goto(server(f"/c/{origin.public_id}/"))
    page.goto(server(f"/c/{newer.public_id}/"))
    expect(page.locator("#connection")).to_have_text(says["connected"])
    expect(origin_entry.locator(".badge--news")).to_have_count(0)  # opened: seen

    support = browser.new_context().new_page()
    support.goto(server("/login/"))
    support.get_by_label("Username").fill("support")
    support.get_by_label("Password").fill("support-pw-123")
    support.get_by_role("button", name="Sign in").click()
    expect(support).to_have_url(server("/admin/"))
    dispute = Dispute.objects.get()
    support.goto(server(f"/admin/disputes/dispute/{dispute.pk}/change/"))
    support.get_by_label("Move to").select_option("resolved")
    support.get_by_label("Note (required, goes on the record with your name)").fill("Refunded.")
    support.get_by_label("Note for the customer").fill(NOTE)
    support.get_by_role("button", name="Record review step").click()
    expect(support.locator(".messagelist")).to_contain_text("moved from In review to Resolved")

    news = page.locator(".msg--news")  # live, in the conversation she is in
    expect(news).to_contain_text(f"{dispute.reference} {says['news']}")
    expect(news).to_contain_text(NOTE)
    expect(origin_entry.locator(".badge--news")).to_have_text(says["badge"])
    assert_accessible(page, "a newer conversation with the news and the sidebar's mark")
    news.get_by_role("link", name=says["link"]).click()
    expect(page).to_have_url(server(f"/c/{origin.public_id}/") + f"#news-{news_id(dispute)}")
    expect(page.locator(".msg--news").last).to_contain_text(NOTE)
    page.goto(server(f"/c/{newer.public_id}/"))
    expect(page.locator(".conversation-list .badge--news")).to_have_count(0)  # seen
    page.goto(server(f"/statement/?month={timezone.localdate(days_ago(5)):%Y-%m}"))
    row = page.locator(".statement-rows tbody tr", has=page.locator("code", has_text="T-1001"))
    expect(row.locator(".dispute-status")).to_contain_text("resolved" if language == "en" else "решён")


def news_id(dispute: Dispute) -> int:
    from bankbot.models import Message

    return Message.objects.filter(payload__kind="dispute_update").latest("pk").pk
