"""A confirm card shows what it is now in every open view of its conversation
(customer issue, point 2): confirmed or declined in one tab, it says so in the other
without a reload; replaced by "Ask for this instead", the old card says it was
replaced and can no longer be confirmed — in the page's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, DroppableChatSocket, LiveServer, send, sign_in
from tools.models import Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "connected": "Connected",
        "block": "Please block my card 4242",
        "dispute": "Please dispute T-1001",
        "pending": "Please confirm this action",
        "confirm": "Confirm",
        "decline": "Decline",
        "done": "Done",
        "declined": "Declined",
        "instead": "Ask for this instead",
        "superseded": "Replaced by your newer request",
        "superseded_note": "Nothing was changed by this card. Only the newer one can be confirmed.",
    },
    "ru": {
        "connected": "На связи",
        "block": "заблокируйте карту 4242",
        "dispute": "оспорьте T-1001",
        "pending": "Подтвердите действие",
        "confirm": "Подтвердить",
        "decline": "Отклонить",
        "done": "Готово",
        "declined": "Отклонено",
        "instead": "Попросить так",
        "superseded": "Заменено вашим новым запросом",
        "superseded_note": "По этой карточке ничего не изменено. Подтвердить можно только новую.",
    },
}


def open_chat(page: Page, server: LiveServer, lang: str) -> None:
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])


def second_tab(page: Page, lang: str) -> Page:
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator("#connection")).to_have_text(SAYS[lang]["connected"])
    return other


def heading(page: Page, card_id: str):
    return page.locator(f"#{card_id} h2")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("click", ["confirm", "decline"])
def test_a_card_clicked_in_one_tab_shows_its_state_in_the_other(
    page: Page, server: LiveServer, alice, lang: str, click: str
) -> None:
    says = SAYS[lang]
    open_chat(page, server, lang)
    send(page, says["block"])
    card = page.locator(".proposal--pending")
    expect(card).to_have_count(1)
    card_id = card.get_attribute("id")
    other = second_tab(page, lang)
    expect(heading(other, card_id)).to_have_text(says["pending"])

    card.get_by_role("button", name=says[click]).click()
    shown = says["done"] if click == "confirm" else says["declined"]
    expect(heading(page, card_id)).to_have_text(shown)
    # The other tab, without a reload: the new state, and nothing left to click.
    expect(heading(other, card_id)).to_have_text(shown)
    expect(other.locator(f"#{card_id} button")).to_have_count(0)
    expect(other.locator(".proposal--pending")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_ask_for_this_instead_marks_the_old_card_replaced_everywhere(
    page: Page, server: LiveServer, alice, lang: str
) -> None:
    says = SAYS[lang]
    open_chat(page, server, lang)
    send(page, says["dispute"])
    old = page.locator(".proposal--pending")
    expect(old).to_have_count(1)
    old_id = old.get_attribute("id")
    other = second_tab(page, lang)

    picker = old.locator(".proposal__picker")
    current = picker.locator("select").input_value()
    another = next(
        v for v in picker.locator("select option").evaluate_all("os => os.map(o => o.value)") if v != current
    )
    picker.locator("select").select_option(another)
    picker.get_by_role("button", name=says["instead"]).click()

    for view in (page, other):
        expect(heading(view, old_id)).to_have_text(says["superseded"])
        expect(view.locator(f"#{old_id} .proposal__note")).to_have_text(says["superseded_note"])
        expect(view.locator(f"#{old_id} button")).to_have_count(0)
        new = view.locator(".proposal--pending")
        expect(new).to_have_count(1)
        expect(new).not_to_have_id(old_id)
    assert Proposal.objects.filter(status=Proposal.Status.SUPERSEDED).count() == 1

    page.reload()  # rendered from the stored state too
    expect(heading(page, old_id)).to_have_text(says["superseded"])
    expect(page.locator(".proposal--pending")).to_have_count(1)


def test_a_tab_whose_socket_was_away_shows_the_new_state_once_back(
    page: Page, server: LiveServer, alice
) -> None:
    """Tab B's socket is cut (as by a network drop) while tab A confirms: B missed the
    push, and is sent the card as it is once its socket is back."""
    says = SAYS["en"]
    open_chat(page, server, "en")
    send(page, says["block"])
    card = page.locator(".proposal--pending")
    expect(card).to_have_count(1)
    card_id = card.get_attribute("id")

    other = page.context.new_page()
    socket = DroppableChatSocket(other)
    other.goto(page.url)
    expect(other.locator("#connection")).to_have_text(says["connected"])
    socket.drop()
    expect(other.locator("#connection")).to_have_text("Reconnecting…")

    card.get_by_role("button", name=says["confirm"]).click()
    expect(heading(page, card_id)).to_have_text(says["done"])
    expect(heading(other, card_id)).to_have_text(says["pending"])  # it missed the push

    socket.come_back()
    expect(other.locator("#connection")).to_have_text(says["connected"])
    expect(heading(other, card_id)).to_have_text(says["done"])
    expect(other.locator(f"#{card_id} button")).to_have_count(0)
