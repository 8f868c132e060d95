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
