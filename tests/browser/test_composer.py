"""Nothing typed is lost (issue 15, point 4): the composer keeps the text until
the bank has stored it; a refused message stays, marked "Not sent", with the
reason and Retry; a counter shows near the length limit and an over-long paste
is refused visibly, never cut; Confirm and Decline say so, with Try again, when
the bank cannot be reached."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, Route, expect

from bankbot.chat import RATE_LIMIT_MESSAGES
from bankbot.models import Conversation, Message
from tests.browser.helpers import PASSWORD, send, sign_in
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SAYS = {
    "en": {
        "not_sent": "Not sent.",
        "rate": "in the last minute",
        "retry": "Retry",
        "too_long": "Your message is 5000 characters long; the limit is 2000.",
        "counter": "1990 of 2000 characters",
        "connected": "Connected",
        "unreachable": "The bank could not be reached.",
        "try_again": "Try again",
        "confirm": "Confirm",
    },
    "ru": {
        "not_sent": "Не отправлено.",
        "rate": "за последнюю минуту",
        "retry": "Повторить",
        "too_long": "Сообщение слишком длинное: 5000 из допустимых 2000 символов.",
        "counter": "1990 из 2000 символов",
        "connected": "На связи",
        "unreachable": "Не удалось связаться с банком.",
        "try_again": "Попробовать снова",
        "confirm": "Подтвердить",
    },
}


def open_chat(page: Page, server, lang: str) -> None:
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])


def fill_rate_limit(customer) -> list[int]:
    other = Conversation.objects.create(customer=customer)
    return [
        Message.objects.create(conversation=other, role="customer", text=f"m{n}").pk
        for n in range(RATE_LIMIT_MESSAGES)
    ]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_refused_message_stays_marked_not_sent_with_a_retry(page: Page, server, alice, lang):
    says = SAYS[lang]
    open_chat(page, server, lang)
    earlier = fill_rate_limit(alice)
    send(page, "Where is my refund & <why>?")

    status = page.locator("#composer-status")
    expect(status).to_contain_text(says["not_sent"])
    expect(status).to_contain_text(says["rate"])
    expect(page.locator("#composer-text")).to_have_value("Where is my refund & <why>?")
    expect(page.locator(".msg--customer")).to_have_count(0)
    expect(page.locator("#notices")).to_be_empty()  # said once, beside the text

    # A minute later (the earlier messages age), Retry sends the same text.
    Message.objects.filter(pk__in=earlier).update(created_at=timezone.now() - timedelta(minutes=2))
    status.get_by_role("button", name=says["retry"]).click()
    expect(page.locator(".msg--customer").last).to_contain_text("Where is my refund & <why>?")
    expect(page.locator("#composer-text")).to_have_value("")
    expect(status).to_be_empty()
    assert Message.objects.filter(role="customer", text="Where is my refund & <why>?").count() == 1


@pytest.mark.parametrize(("lang", "viewport"), [("en", None), ("ru", PHONE)])
def test_an_over_long_paste_is_refused_visibly_not_cut(browser, server, alice, lang, viewport):
    says = SAYS[lang]
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    page = context.new_page()
    open_chat(page, server, lang)
    box = page.locator("#composer-text")
    counter = page.locator("#composer-counter")
    box.click()
    page.keyboard.insert_text("x" * 5000)  # as a paste arrives

    expect(box).to_have_value("x" * 5000)  # nothing cut
    expect(counter).to_be_visible()
    expect(page.locator("#composer-status")).to_contain_text(says["not_sent"])
    expect(page.locator("#composer-status")).to_contain_text(says["too_long"])
    box.press("Enter")
    expect(box).to_have_value("x" * 5000)
    assert not Message.objects.exists()

    # Shortened to just under the limit: the counter says how near, and it goes.
    box.fill("y" * 1990)
    expect(counter).to_have_text(says["counter"])
    expect(page.locator("#composer-status")).to_be_empty()
    box.press("Enter")
    expect(page.locator(".msg--customer")).to_have_count(1)
    expect(box).to_have_value("")
    expect(counter).to_be_hidden()  # far from the limit again
    assert Message.objects.get(role="customer").text == "y" * 1990
    context.close()


def test_the_counter_appears_only_near_the_limit(page: Page, server, alice):
    open_chat(page, server, "en")
    box = page.locator("#composer-text")
    box.fill("z" * 1700)
    expect(page.locator("#composer-counter")).to_be_hidden()
    box.fill("z" * 1850)
    expect(page.locator("#composer-counter")).to_have_text("1850 of 2000 characters")


def ask_to_block(page: Page, lang: str) -> None:
    send(page, "Block my card 4242" if lang == "en" else "Заблокируй карту 4242")
    expect(
        page.locator(".proposal--pending").get_by_role("button", name=SAYS[lang]["confirm"])
    ).to_be_enabled()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_confirm_says_when_the_bank_cannot_be_reached_and_retries(page: Page, server, alice, lang):
    says = SAYS[lang]
    open_chat(page, server, lang)
    ask_to_block(page, lang)
    card = page.locator(".proposal--pending")

    page.route("**/proposals/*/confirm", lambda route: route.abort("internetdisconnected"))
    card.get_by_role("button", name=says["confirm"]).click()
    error = card.get_by_role("alert")
    expect(error).to_contain_text(says["unreachable"])
    assert Proposal.objects.get().status == "pending"

    page.unroute("**/proposals/*/confirm")
    error.get_by_role("button", name=says["try_again"]).click()
    expect(page.locator(".proposal--executed")).to_be_visible()
    assert Proposal.objects.get().status == "executed"


def test_decline_says_when_the_bank_answers_with_an_error(page: Page, server, alice):
    open_chat(page, server, "en")
    ask_to_block(page, "en")
    card = page.locator(".proposal--pending")

    def bad_gateway(route: Route) -> None:
        route.fulfill(status=502, body="Bad Gateway")

    page.route("**/proposals/*/decline", bad_gateway)
    card.get_by_role("button", name="Decline").click()
    error = card.get_by_role("alert")
    expect(error).to_contain_text("The bank could not answer just now.")
    expect(card.get_by_role("button", name="Decline")).to_be_enabled()

    page.unroute("**/proposals/*/decline")
    error.get_by_role("button", name="Try again").click()
    expect(page.locator(".proposal--declined")).to_be_visible()
