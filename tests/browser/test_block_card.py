"""Alice asks to block a card and confirms: the database shows it blocked, once,
even when she double-clicks; without JavaScript the same card is a plain form."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import Card
from tests.browser.helpers import PASSWORD, send, sign_in
from tools.models import Confirmation, ToolCallTrace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def ask_to_block(page: Page) -> None:
    send(page, "Block my card 4242")
    card = page.locator(".proposal--pending")
    expect(card).to_contain_text("Block card Visa •••• 4242")
    expect(card.get_by_role("button", name="Confirm")).to_be_enabled()


def test_confirming_blocks_the_card(page: Page, server, alice):
    sign_in(page, server, "alice", PASSWORD["alice"])
    ask_to_block(page)
    page.locator(".proposal--pending").get_by_role("button", name="Confirm").click()
    result = page.locator(".proposal--executed")
    expect(result).to_contain_text("Card Visa •••• 4242 is blocked.")
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED
    assert Card.objects.get(last4="5505").status == Card.Status.ACTIVE


def test_a_double_click_makes_one_action(page: Page, server, alice):
    sign_in(page, server, "alice", PASSWORD["alice"])
    ask_to_block(page)
    page.locator(".proposal--pending").get_by_role("button", name="Confirm").dblclick()
    expect(page.locator(".proposal--executed")).to_contain_text("is blocked")
    assert Confirmation.objects.get().response["status"] == "executed"
    assert ToolCallTrace.objects.filter(event="executed").count() == 1
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED


def test_declining_changes_nothing(page: Page, server, alice):
    sign_in(page, server, "alice", PASSWORD["alice"])
    ask_to_block(page)
    page.locator(".proposal--pending").get_by_role("button", name="Decline").click()
    expect(page.locator(".proposal--declined")).to_contain_text("Nothing was changed.")
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE


def test_it_works_without_javascript(browser: Browser, server, alice):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server("/login/"))
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD["alice"])
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Your message").fill("Block my card 4242")
    page.get_by_role("button", name="Send").click()
    card = page.locator(".proposal--pending")
    expect(card).to_contain_text("Block card Visa •••• 4242")
    card.get_by_role("button", name="Confirm").click()
    expect(page.locator(".proposal--executed")).to_contain_text("is blocked")
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED
    context.close()
