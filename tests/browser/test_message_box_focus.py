"""Where the chat page starts (customer issue, point 9): after sign-in the focus is in the
message box; the skip link goes to the message box, not into a long list of
conversations; without JavaScript the hint does not say that Enter sends (there
Enter starts a new line)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from bankbot.models import Conversation
from tests.browser.helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "skip": "Skip to the message box",
        "send": "Send",
        "enter": "Enter sends, Shift+Enter starts a new line.",
        "never": "The assistant never changes anything without your confirmation.",
    },
    "ru": {
        "skip": "Перейти к полю сообщения",
        "send": "Отправить",
        "enter": "Enter — отправить, Shift+Enter — новая строка.",
        "never": "Ассистент ничего не меняет без вашего подтверждения.",
    },
}


def signed_in(browser: Browser, server, lang: str, *, javascript: bool) -> Page:
    page = browser.new_context(java_script_enabled=javascript).new_page()
    page.goto(server("/login/"))
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("#id_username").fill("alice")
    page.locator("#id_password").fill(PASSWORD["alice"])
    page.locator(".auth-card button[type=submit]").click()
    expect(page.locator("#chat")).to_be_visible()
    return page


@pytest.mark.parametrize(("lang", "javascript"), [("en", True), ("ru", True), ("en", False)])
def test_after_sign_in_the_focus_is_in_the_message_box(browser: Browser, server, alice, lang, javascript):
    page = signed_in(browser, server, lang, javascript=javascript)

    expect(page.locator("#composer-text")).to_be_focused()
    page.keyboard.type("Hello")  # typing goes straight into the box
    expect(page.locator("#composer-text")).to_have_value("Hello")
    page.context.close()


@pytest.mark.parametrize(("lang", "javascript"), [("en", True), ("ru", False)])
def test_the_skip_link_reaches_the_message_box_past_the_conversations(
    browser: Browser, server, alice, lang, javascript
):
    says = SAYS[lang]
    for n in range(39):
        Conversation.objects.create(customer=alice, title=f"Earlier question {n}")
    page = signed_in(browser, server, lang, javascript=javascript)
    expect(page.locator(".conversation-list a")).to_have_count(39)

    # The page's first stop, shown when focused.
    first = page.locator("a[href], button, input:not([type=hidden]), textarea, select, [tabindex]").first
    expect(first).to_have_class("skip-link")
    skip = page.get_by_role("link", name=says["skip"])
    skip.focus()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")

    expect(page.locator("#composer-text")).to_be_focused()
    page.keyboard.press("Tab")  # past all 39 conversations: the next stop is Send
    expect(page.get_by_role("button", name=says["send"], exact=True)).to_be_focused()
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_hint_says_enter_sends_only_with_javascript(browser: Browser, server, alice, lang):
    says = SAYS[lang]
    page = signed_in(browser, server, lang, javascript=False)
    hint = page.locator("#composer-hint")

    expect(hint).to_have_text(says["never"], use_inner_text=True)
    expect(hint).not_to_contain_text("Enter", use_inner_text=True)
    # What a screen reader says of the box, too.
    expect(page.locator("#composer-text")).to_have_accessible_description(says["never"])
    # Without JavaScript, Enter in the box is a new line, as the hint no longer says otherwise.
    page.locator("#composer-text").press("Enter")
    expect(page.locator(".msg--customer")).to_have_count(0)
    page.context.close()

    page = signed_in(browser, server, lang, javascript=True)
    expect(page.locator("#composer-hint")).to_have_text(
        f"{says['enter']} {says['never']}", use_inner_text=True
    )
    expect(page.locator("#composer-text")).to_have_accessible_description(f"{says['enter']} {says['never']}")
    page.context.close()
