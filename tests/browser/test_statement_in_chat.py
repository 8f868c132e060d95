"""Alice signs in, asks for her statement and sees it as a table."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from bankbot.models import Message
from tests.browser.helpers import PASSWORD, send, sign_in
from tests.chat.helpers import statement_request

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_shows_the_statement_as_a_table(page: Page, server, alice):
    sign_in(page, server, "alice", PASSWORD["alice"])
    send(page, statement_request())
    table = page.locator(".txn-table").last
    expect(table).to_be_visible()
    row = table.locator("tr", has=page.locator("code", has_text="T-1001"))
    expect(row).to_contain_text("Magnum Cash&Carry")
    expect(row).to_contain_text("15,000.00")
    expect(row.get_by_role("button", name="Dispute T-1001…")).to_be_visible()
    # The streamed answer ends as a finished bubble, and the composer is ready again.
    expect(page.locator('[data-state="done"]').last).to_be_visible()
    expect(page.get_by_label("Your message")).to_have_value("")


def test_a_dispute_button_prepares_a_confirm_card(page: Page, server, alice):
    sign_in(page, server, "alice", PASSWORD["alice"])
    send(page, statement_request())
    expect(page.locator('[data-state="done"]')).to_be_visible()  # one turn at a time
    page.get_by_role("button", name="Dispute T-1001…").click()
    card = page.locator(".proposal--pending")
    expect(card.locator(".proposal__summary")).to_contain_text(
        "Dispute 15,000.00\u00a0₸ at Magnum Cash&Carry on "
    )
    expect(card.locator(".proposal__summary")).to_contain_text("— T-1001")
    expect(card.get_by_role("button", name="Confirm")).to_be_visible()
    expect(page.locator(".msg--customer").last).to_contain_text("Dispute T-1001")


def test_the_streamed_answer_ends_as_one_finished_bubble_holding_all_of_it(page: Page, server, alice):
    # The text comes a few words per frame, the last of them in the frame that
    # carries the finished bubble (bankbot/streaming.py).
    sign_in(page, server, "alice", PASSWORD["alice"])
    send(page, statement_request())
    bubble = page.locator('.msg--assistant [data-state="done"]')
    expect(bubble).to_have_count(1)
    expect(page.locator('[data-state="streaming"]')).to_have_count(0)
    answer = Message.objects.filter(role="assistant").last().text
    expect(bubble.locator(".bubble__text")).to_have_text(answer)
