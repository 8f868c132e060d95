"""A customer and a support staff member in two Chromium contexts, in English and in
Russian: the customer asks for a person → staff take the conversation → messages both
ways, live → staff propose a block, the customer confirms it → staff hand it back → the
assistant answers again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import Card
from tests.browser.helpers import PASSWORD, LiveServer, send, sign_in
from tests.support.helpers import make_support_staff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "connected": "Connected",
        "ask": "Can I talk to a human?",
        "offer": "Talk to a specialist",
        "asked": "You asked for a specialist.",
        "queued": "You are number 1 in the queue for a specialist.",
        "joined": "Aigerim from support has joined the conversation.",
        "name": "Aigerim from support",
        "thanks": "Thank you, is my card safe?",
        "sent": "Sent to Aigerim from support.",
        "back": "Aigerim from support handed the conversation back to the assistant.",
        "cards": "show my cards",
        "label": "Proposed by Aigerim from support",
        "confirm": "Confirm",
        "blocked": "Card Visa •••• 4242 is blocked.",
    },
    "ru": {
        "connected": "На связи",
        "ask": "позовите оператора",
        "offer": "Поговорить со специалистом",
        "asked": "Вы попросили специалиста.",
        "queued": "Ваш номер в очереди к специалисту: 1.",
        "joined": "В разговоре Aigerim из поддержки.",
        "name": "Aigerim из поддержки",
        "thanks": "Спасибо, моя карта в безопасности?",
        "sent": "Отправлено: Aigerim из поддержки.",
        "back": "Специалист Aigerim из поддержки вернул(а) разговор ассистенту.",
        "cards": "покажи мои карты",
        "label": "Предлагает Aigerim из поддержки",
        "confirm": "Подтвердить",
        "blocked": "Карта Visa •••• 4242 заблокирована.",
    },
}


def staff_signs_in(browser: Browser, server: LiveServer) -> Page:
    staff = browser.new_context().new_page()
    staff.goto(server("/admin/login/?next=/support/"))
    staff.locator("#id_username").fill("aigerim")
    staff.locator("#id_password").fill("aigerim-pw-123")
    staff.locator("input[type=submit]").click()
    expect(staff.locator("#support-queue")).to_be_visible()
    return staff


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_person_takes_over_live_and_hands_back(
    page: Page, browser: Browser, server: LiveServer, alice, lang: str
) -> None:
    make_support_staff("aigerim", "Aigerim")
    says = SAYS[lang]
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("#connection")).to_have_text(says["connected"])

    # Asking for a person: the offer, made by code; the click queues the conversation.
    send(page, says["ask"])
    page.get_by_role("button", name=says["offer"]).click()
    expect(page.get_by_text(says["asked"])).to_be_visible()
    expect(page.get_by_text(says["queued"])).to_be_visible()

    # Staff see it in the queue (polled), open it and take it.
    staff = staff_signs_in(browser, server)
    staff.get_by_role("link", name="Alice Akhmetova").click()
    expect(staff.locator("#transcript")).to_contain_text(says["ask"])
    staff.get_by_role("button", name="Take this conversation").click()
    expect(page.get_by_text(says["joined"])).to_be_visible()

    # Staff → customer, live, under their name and marked as a person.
    staff.locator("#support-text").fill("Hello, I am looking at your card <b>now</b>.")
    staff.get_by_role("button", name="Send").click()
    message = page.locator(".msg--staff").last
    expect(message).to_contain_text("Hello, I am looking at your card <b>now</b>.")
    expect(message).to_contain_text(says["name"])
    # Reloaded, the page's socket is also sent what came since it was rendered: shown once.
    page.reload()
    expect(page.locator("#connection")).to_have_text(says["connected"])
    expect(page.locator(".msg--staff")).to_have_count(1)
    expect(page.locator(".person-note", has_text=says["joined"])).to_have_count(1)

    # Customer → staff: the model stays silent; staff's transcript shows it (polled).
    send(page, says["thanks"])
    expect(page.get_by_text(says["sent"])).to_be_visible()
    expect(staff.locator("#transcript")).to_contain_text(says["thanks"])

    # Staff propose a block: the customer's confirm card, labelled, live; only her click
    # carries it out.
    staff.locator("#propose-tool").select_option("block_card")
    staff.locator("#propose-card").select_option("4242")
    staff.get_by_role("button", name="Propose to the customer").click()
    card = page.locator(".msg--staff-proposal .proposal").last
    expect(card.locator(".proposal__by")).to_have_text(says["label"])
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE  # proposed, not done
    card.get_by_role("button", name=says["confirm"]).click()
    expect(card.locator(".proposal__result")).to_contain_text(says["blocked"])
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED

    # Handed back: the assistant answers again.
    staff.get_by_role("button", name="Hand back to the assistant").click()
    expect(staff.locator("#support-queue")).to_be_visible()
    expect(page.get_by_text(says["back"])).to_be_visible()
    send(page, says["cards"])
    expect(page.locator(".bank-card").first).to_be_visible()
    staff.context.close()
