"""At phone width (390 px) every table of the Injection Lab reflows into cards, so no
column hides behind a sideways scroll and axe finds no scrollable region a keyboard
cannot reach (customer issue, point 8). The chat's tables and the statement page are
checked at that width in test_accessibility.py and test_statement_page.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_accessibility import assert_accessible, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def assert_no_sideways_scroll(page: Page, what: str) -> None:
    wide = page.evaluate(
        """(limit) => [...document.querySelectorAll('body *')]
             .filter((el) => el.getBoundingClientRect().right > limit)
             .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)
             .slice(0, 8)""",
        PHONE["width"],
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"{what}: {wide}"
    hidden = page.evaluate(
        """() => [...document.querySelectorAll('.table-wrap')]
             .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
             .map((wrap) => wrap.querySelector('th, td')?.textContent.trim())"""
    )
    assert hidden == [], f"{what}: tables scrolling sideways: {hidden}"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_labs_pages_reflow_at_phone_width(browser: Browser, server, staff, language):
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page = context.new_page()
    sign_in(page, server, "support", "support-pw-123")
    page.goto(server("/lab/"))
    assert_no_sideways_scroll(page, "lab index")
    assert_accessible(page, "lab index at phone width")
    page.goto(server("/lab/desc-ignore-previous/"))
    assert_no_sideways_scroll(page, "lab scenario")
    page.locator("form.month-picker button[type=submit]").click()  # both harnesses run
    compare = page.locator(".lab-compare")
    guarded = "Guarded harness" if language == "en" else "Защищённ"
    expect(compare).to_contain_text(guarded, timeout=120_000)
    assert_no_sideways_scroll(page, "lab scenario, run")
    # The two runs are stacked, naive first, each the page's width: the guarded one
    # is below it, never off to the side.
    naive_box = page.locator(".lab-run-result--naive").bounding_box()
    guarded_box = page.locator(".lab-run-result--guarded").bounding_box()
    assert naive_box and guarded_box
    assert guarded_box["y"] >= naive_box["y"] + naive_box["height"]
    assert guarded_box["x"] + guarded_box["width"] <= PHONE["width"]
    page.locator(".lab-run-result--guarded h3").scroll_into_view_if_needed()
    expect(page.locator(".lab-run-result--guarded h3")).to_be_in_viewport()
    assert_accessible(page, "lab scenario, run, at phone width")
    page.goto(server("/lab/scores/"))
    assert_no_sideways_scroll(page, "lab scores")
    assert_accessible(page, "lab scores at phone width")
