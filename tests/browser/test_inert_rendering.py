"""A transaction description holding <script>, <img src=//elsewhere> or hx-get=
renders as text: no dialog, no request to another host, no htmx request."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Transaction
from tests.browser.helpers import PASSWORD, send, sign_in
from tests.chat.helpers import statement_request

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAYLOADS = [
    "<script>alert('merchant')</script>",
    "<img src=//elsewhere.example/pixel.png onerror=alert(2)>",
    '<button hx-get="/admin/" hx-trigger="load">refund</button>',
]


@pytest.fixture
def hostile(alice):
    Transaction.objects.filter(reference="T-1001").update(
        description=" ".join(PAYLOADS), merchant="<b>Magnum</b>"
    )


def assert_inert(page: Page, watch, server) -> None:
    description = page.locator(".merchant__desc", has_text="alert('merchant')").last
    for payload in PAYLOADS:
        expect(description).to_contain_text(payload)
    expect(page.locator(".merchant__name", has_text="<b>Magnum</b>").last).to_be_visible()
    assert page.locator("img[src*='elsewhere']").count() == 0
    assert page.locator("[hx-get], [hx-trigger], [onerror]").count() == 0
    assert page.locator(".txn-table b").count() == 0
    assert watch["dialogs"] == []
    assert watch["foreign"] == []
    assert all(url.startswith(server.url) for url in watch["requests"])
    assert not any("/admin/" in url for url in watch["requests"])


def test_it_renders_hostile_text_inert_in_the_chat(page: Page, server, watch, hostile):
    sign_in(page, server, "alice", PASSWORD["alice"])
    send(page, statement_request())
    expect(page.locator('[data-state="done"]').last).to_be_visible()
    assert_inert(page, watch, server)
    page.reload()  # the stored history renders the same way
    expect(page.locator(".txn-table").last).to_be_visible()
    assert_inert(page, watch, server)


def test_it_renders_hostile_text_inert_on_the_statement_page(page: Page, server, watch, hostile):
    sign_in(page, server, "alice", PASSWORD["alice"])
    page.get_by_role("link", name="Statement", exact=True).click()
    expect(page.locator(".txn-table")).to_be_visible()
    assert_inert(page, watch, server)
