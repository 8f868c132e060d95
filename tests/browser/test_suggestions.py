"""Suggestion chips after answers, not only on the welcome (customer issue, point 10): one
set at a time, under the latest answer, in the customer's language, live and after a
reload, with and without JavaScript. A chip sends its words as the customer's message
and nothing else: it never proposes a write by itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from bankbot.models import Message
from tests.browser.helpers import PASSWORD, send, sign_in
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "connected": "Connected",
        "chips": [
            "Show this month's statement",
            "Show last month's statement",
            "I want to dispute a payment",
            "I want to block my card",
        ],
        "cards": "list my cards",
        "message": "Your message",
        "send": "Send",
    },
    "ru": {
        "connected": "На связи",
        "chips": [
            "Покажи выписку за этот месяц",
            "Покажи выписку за прошлый месяц",
            "Хочу оспорить платёж",
            "Хочу заблокировать карту",
        ],
        "cards": "покажи мои карты",
        "message": "Ваше сообщение",
        "send": "Отправить",
    },
}


def open_chat(page: Page, server, lang: str) -> None:
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])


def visible_chips(page: Page):
    return page.locator("#messages .suggestions:visible")


def only_under_the_latest_answer(page: Page, lang: str) -> None:
    expect(visible_chips(page)).to_have_count(1)
    latest = page.locator("#messages > article").last
    expect(latest).to_have_class("msg msg--assistant")
    expect(latest.locator(".suggestions .chip")).to_have_text(SAYS[lang]["chips"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_chips_come_after_every_answer(page: Page, server, alice, lang):
    says = SAYS[lang]
    open_chat(page, server, lang)
    expect(visible_chips(page).locator(".chip")).to_have_text(says["chips"])  # the welcome's

    page.get_by_role("button", name=says["chips"][1]).click()  # last month's statement
    expect(page.locator('.msg--assistant [data-state="done"]')).to_have_count(1)
    expect(page.locator(".msg--customer .bubble__text").last).to_have_text(says["chips"][1])
    only_under_the_latest_answer(page, lang)

    send(page, says["cards"])
    expect(page.locator('.msg--assistant [data-state="done"]')).to_have_count(2)
    expect(page.locator(".card-list").last).to_be_visible()
    only_under_the_latest_answer(page, lang)

    page.reload()
    expect(page.locator("#connection")).to_have_text(says["connected"])
    only_under_the_latest_answer(page, lang)
    expect(page.locator("#messages .suggestions")).to_have_count(1)  # one set in the page at all


def test_a_chip_sends_its_words_and_proposes_nothing_by_itself(page: Page, server, alice):
    """Alice has two active cards: "I want to block my card" names neither, so the
    harness proposes nothing and offers both cards' buttons, as for the typed words."""
    open_chat(page, server, "en")
    page.get_by_role("button", name="Show this month's statement").click()
    expect(page.locator('.msg--assistant [data-state="done"]')).to_have_count(1)

    page.get_by_role("button", name="I want to block my card").click()
    expect(page.locator('.msg--assistant [data-state="done"]')).to_have_count(2)
    customer = Message.objects.filter(role="customer").latest("id")
    assert customer.text == "I want to block my card" and not customer.ui_action
    expect(page.locator(".msg--customer .bubble__action")).to_have_count(0)  # not a button's request
    assert not Proposal.objects.exists()
    expect(page.locator(".proposal")).to_have_count(0)
    only_under_the_latest_answer(page, "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_chips_come_after_answers_without_javascript(browser: Browser, server, alice, lang):
    says = SAYS[lang]
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(server("/login/"))
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
    page.locator("#id_username").fill("alice")
    page.locator("#id_password").fill(PASSWORD["alice"])
    page.locator(".auth-card button[type=submit]").click()
    page.get_by_label(says["message"]).fill(says["cards"])
    page.get_by_role("button", name=says["send"], exact=True).click()
    only_under_the_latest_answer(page, lang)

    page.get_by_role("button", name=says["chips"][0]).click()
    expect(page.locator(".msg--customer .bubble__text").last).to_have_text(says["chips"][0])
    only_under_the_latest_answer(page, lang)
    page.context.close()
