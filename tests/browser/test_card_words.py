"""The customer's language on the confirm card, in the assistant's sentence and in the
disputes table (customer issue, point 4): a dispute's card names the merchant, the date and
the amount; the reason picker asks «Другая причина?»; the assistant says what it
prepared in the language the customer wrote in, whatever the page's; the disputes
table names each merchant; and a Russian chat holds no English sentence."""

from __future__ import annotations

import re

import pytest
from django.utils import formats, timezone, translation
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import PASSWORD, send, sign_in
from tests.chat.test_one_language import english_in
from tests.factories import days_ago

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "connected": "Connected",
        "dispute": "Please dispute T-1001",
        # The card's headline, said: amount, merchant, day and reference.
        "prepared": (
            "I've prepared this for you: Dispute 15,000.00\u00a0₸ at Magnum Cash&Carry on {day} — T-1001"
        ),
        "rows": [
            "Transaction",
            "T-1001",
            "Merchant",
            "Magnum Cash&Carry",
            "Date",
            "Amount",
            "15,000.00\u00a0₸",
        ],
        "another": "Another reason?",
        "confirm": "Confirm",
        "disputes": "show my disputes",
        "merchant": "Merchant",
    },
    "ru": {
        "connected": "На связи",
        "dispute": "оспорьте T-1001",
        "prepared": (
            "Я подготовил это для вас: Оспорить 15\u00a0000,00\u00a0₸ в Magnum Cash&Carry от {day} — T-1001"
        ),
        "rows": [
            "Операция",
            "T-1001",
            "Продавец",
            "Magnum Cash&Carry",
            "Дата",
            "Сумма",
            "15\u00a0000,00\u00a0₸",
        ],
        "another": "Другая причина?",
        "confirm": "Подтвердить",
        "disputes": "покажи мои споры",
        "merchant": "Продавец",
    },
}


def t_1001_day(lang: str) -> str:
    with translation.override(lang):
        return formats.date_format(timezone.localdate(days_ago(5)), "j M Y")


def open_chat(page: Page, server, lang: str) -> None:
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])


def answered(page: Page, count: int) -> None:
    expect(page.locator('.msg--assistant [data-state="done"]')).to_have_count(count)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_dispute_card_and_the_disputes_table_name_the_merchant(page: Page, server, alice, lang):
    says = SAYS[lang]
    open_chat(page, server, lang)
    send(page, says["dispute"])
    answered(page, 1)

    said = says["prepared"].format(day=t_1001_day(lang))
    expect(page.locator(".msg--assistant .bubble__text").last).to_contain_text(said)
    card = page.locator(".proposal--pending")
    shown = [
        text.strip() for text in card.locator(".proposal__args dt, .proposal__args dd").all_inner_texts()
    ]
    assert shown[:7] == [*says["rows"][:5], t_1001_day(lang), says["rows"][5]]
    assert says["rows"][6] in shown
    expect(card.locator(".proposal__picker label")).to_have_text(says["another"])

    card.get_by_role("button", name=says["confirm"]).click()
    expect(page.locator(".proposal--executed")).to_contain_text("Magnum Cash&Carry")
    send(page, says["disputes"])
    answered(page, 2)
    table = page.locator("table.disputes")
    expect(table.get_by_role("columnheader", name=says["merchant"])).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(1)
    expect(table.locator("tbody tr")).to_contain_text("Magnum Cash&Carry")
    expect(table.locator("tbody tr")).to_contain_text(t_1001_day(lang))


def test_a_russian_chat_holds_no_english_sentence(page: Page, server, alice):
    open_chat(page, server, "ru")
    for n, text in enumerate(
        ["заблокируйте карту 4242", "оспорьте T-1001", "покажи выписку за прошлый месяц"]
    ):
        send(page, text)
        answered(page, n + 1)
    expect(page.locator(".proposal--pending")).to_have_count(2)
    pages = {"chat": page.content()}
    page.reload()
    expect(page.locator("#connection")).to_have_text("На связи")
    pages["chat, reloaded"] = page.content()
    page.goto(server("/statement/"))
    pages["statement"] = page.content()

    assert english_in(pages) == []
    assert "Выбрать другое" not in pages["chat"] and "Другая причина?" in pages["chat"]


def test_the_assistant_answers_in_the_customers_language_on_an_english_page(page: Page, server, alice):
    """The page is English, the customer writes Russian: the assistant's sentence is
    all Russian; the card stays in the page's language."""
    open_chat(page, server, "en")
    send(page, "заблокируйте карту 4242")
    answered(page, 1)

    said = page.locator(".msg--assistant .bubble__text").last
    expect(said).to_contain_text("Я подготовил это для вас: Заблокировать карту •••• 4242.")
    expect(said).not_to_contain_text(re.compile("Block|Visa"))
    expect(page.locator(".proposal--pending .proposal__summary")).to_have_text("Block card Visa •••• 4242")


def test_the_card_names_the_merchant_without_javascript(browser: Browser, server, alice):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server("/login/"))
    page.get_by_role("button", name="RU").click()
    page.locator("#id_username").fill("alice")
    page.locator("#id_password").fill(PASSWORD["alice"])
    page.locator(".auth-card button[type=submit]").click()
    page.get_by_label("Ваше сообщение").fill("оспорьте T-1001")
    page.get_by_role("button", name="Отправить", exact=True).click()

    card = page.locator(".proposal--pending")
    expect(card).to_contain_text("Magnum Cash&Carry")
    expect(card).to_contain_text(t_1001_day("ru"))
    expect(card.locator(".proposal__picker label")).to_have_text("Другая причина?")
    context.close()
