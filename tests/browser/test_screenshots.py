"""Screenshots of the main screens, linked from the README (docs/screenshots/).

BANKBOT_UPDATE_SCREENSHOTS=1 retakes them from a live server with the demo data;
otherwise the test only checks that each one is there.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import LiveServer, send, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENS = [
    "login.png",
    "chat-statement.png",
    "confirm-card.png",
    "confirm-result.png",
    "phone-chat.png",
    "phone-statement.png",
    "chat-russian.png",
    "dispute-news.png",
]
UPDATE = os.environ.get("BANKBOT_UPDATE_SCREENSHOTS") == "1"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def test_the_screenshots_are_there() -> None:
    if UPDATE:
        pytest.skip("being retaken by test_take_screenshots")
    for name in SCREENS:
        path = SHOTS / name
        assert path.exists(), f"{path} is missing: run BANKBOT_UPDATE_SCREENSHOTS=1 bin/test tests/browser"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not UPDATE, reason="set BANKBOT_UPDATE_SCREENSHOTS=1 to retake them")
def test_take_screenshots(browser: Browser, own_server: LiveServer) -> None:
    server = own_server  # support writes through admin (tests/browser/conftest.py)
    # In a thread of its own: the demo's dispute news is pushed to the channel layer
    # (async_to_sync), which cannot run in this thread, where Playwright's loop runs.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(call_command, "seed_demo", verbosity=0).result()
    SHOTS.mkdir(parents=True, exist_ok=True)
    desktop = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    page = desktop.new_page()

    page.goto(server("/login/"))
    expect(page.get_by_label("Username")).to_be_focused()
    page.screenshot(path=SHOTS / "login.png")

    sign_in(page, server, "alice", "alice-demo-2026")
    page.get_by_role("button", name="Show last month's statement").click()
    expect(page.locator(".txn-table")).to_be_visible()
    expect(page.locator('[data-state="done"]')).to_be_visible()
    shoot(page, ".txn-table", "chat-statement.png")

    send(page, "Block my card 4242")
    card = page.locator(".proposal--pending")
    expect(card).to_be_visible()
    expect(page.locator('[data-state="done"]')).to_have_count(2)
    shoot(page, ".proposal--pending", "confirm-card.png")

    card.get_by_role("button", name="Confirm").click()
    expect(page.locator(".proposal--executed")).to_be_visible()
    shoot(page, ".proposal--executed", "confirm-result.png")
    conversation_url = page.url
    desktop.close()

    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = phone.new_page()
    sign_in(page, server, "alice", "alice-demo-2026")
    page.goto(conversation_url)
    expect(page.locator("#connection")).to_have_text("Connected")
    shoot(page, ".txn-table", "phone-chat.png")
    page.goto(server("/statement/"))
    page.screenshot(path=SHOTS / "phone-statement.png")
    phone.close()

    russian = browser.new_context(viewport=DESKTOP)
    page = russian.new_page()
    sign_in(page, server, "bob", "bob-demo-2026")
    page.get_by_role("button", name="RU").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#connection")).to_have_text("На связи")
    send(page, "Покажи мои карты и заблокируй карту 1111")
    expect(page.locator(".proposal--pending")).to_be_visible()
    expect(page.locator('[data-state="done"]')).to_be_visible()
    shoot(page, ".proposal--pending", "chat-russian.png")
    russian.close()

    shoot_dispute_news(browser, server)


def shoot_dispute_news(browser: Browser, server: LiveServer) -> None:
    """Alice disputes a row with its button; support moves the dispute in admin with a
    note for her; the news arrives in her open chat."""
    from accounts.models import Transaction
    from disputes.models import Dispute

    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_in(page, server, "alice", "alice-demo-2026")
    page.get_by_role("button", name="Show last month's statement").click()
    expect(page.locator('[data-state="done"]').last).to_be_visible()
    shown = [
        re.sub(r"^Dispute (T-\d+)…$", r"\1", name)
        for name in page.locator(".txn-table")
        .last.get_by_role("button", name=re.compile(r"^Dispute T-\d+…$"))
        .evaluate_all("buttons => buttons.map(b => b.getAttribute('aria-label'))")
    ]
    free = (
        Transaction.objects.filter(reference__in=shown, disputes__isnull=True).order_by("-amount").first()
    )  # a row nobody disputed yet
    assert free is not None, shown
    page.get_by_role("button", name=f"Dispute {free.reference}…").last.click()
    card = page.locator(".proposal--pending").last
    card.get_by_role("button", name="Confirm").click()
    expect(page.locator(".proposal--executed").last).to_contain_text("is open")
    dispute = Dispute.objects.order_by("-pk").first()
    assert dispute is not None

    support = browser.new_context(viewport=DESKTOP).new_page()
    support.goto(server("/login/"))
    support.get_by_label("Username").fill("support")
    support.get_by_label("Password").fill("support-demo-2026")
    support.get_by_role("button", name="Sign in").click()
    support.goto(server(f"/admin/disputes/dispute/{dispute.pk}/change/"))
    support.get_by_label("Move to").select_option("in_review")
    support.get_by_label("Note (required, goes on the record with your name)").fill(
        "Asked the merchant for the receipt."
    )
    support.get_by_label("Note for the customer").fill(
        "We have asked the shop for its records; we will write again within 10 days."
    )
    support.get_by_role("button", name="Record review step").click()
    expect(page.locator(".msg--news")).to_be_visible()
    shoot(page, ".proposal--executed", "dispute-news.png")  # the news below the result


def shoot(page: Page, selector: str, name: str) -> None:
    """The window, with the message holding ``selector`` scrolled to the top of the chat."""
    page.locator(selector).last.evaluate("""element => {
        const list = document.getElementById("messages");
        const message = element.closest(".msg");
        list.scrollTop += message.getBoundingClientRect().top - list.getBoundingClientRect().top - 8;
        window.scrollTo(0, 0);
    }""")
    page.screenshot(path=SHOTS / name)
