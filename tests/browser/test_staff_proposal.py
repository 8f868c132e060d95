"""A card support staff propose appears live on the customer's open chat page, labelled
with who proposed it, and only the customer's click carries it out (EN and RU).

Staff propose from their own page (/support/, in a second browser context) in a
conversation they hold, served by the same live server as the customer's page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import Card
from bankbot.models import Conversation
from support.services import handoff_take
from tests.browser.helpers import PASSWORD, DroppableChatSocket, LiveServer, sign_in
from tests.support.helpers import make_support_staff, queued
from tests.threads import run_at_once
from tools.models import Proposal, ToolCallTrace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "connected": "Connected",
        "name": "Aigerim",
        "label": "Proposed by Aigerim from support",
        "pending": "Please confirm this action",
        "confirm": "Confirm",
        "done": "Done",
        "blocked": "Card Visa •••• 4242 is blocked.",
    },
    "ru": {
        "connected": "На связи",
        "name": "Айгерим",
        "label": "Предлагает Айгерим из поддержки",
        "pending": "Подтвердите действие",
        "confirm": "Подтвердить",
        "done": "Готово",
        "blocked": "Карта Visa •••• 4242 заблокирована.",
    },
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_staff_proposal_appears_live_and_the_customers_click_blocks_the_card(
    page: Page, browser: Browser, server: LiveServer, alice, lang: str
) -> None:
    says = SAYS[lang]
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(says["connected"])
    conversation = Conversation.objects.get(customer=alice)  # the one the page shows
    staff, staff_page = staff_holding(browser, server, conversation, says["name"])

    proposal = propose(staff_page, "4242")

    card = page.locator(f"#proposal-{proposal.public_id}")
    expect(card.locator("h2")).to_have_text(says["pending"])  # live: no reload
    expect(card.locator(".proposal__by")).to_have_text(says["label"])
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE  # proposed only

    card.get_by_role("button", name=says["confirm"]).click()

    expect(card.locator("h2")).to_have_text(says["done"])
    expect(card.locator(".proposal__result")).to_contain_text(says["blocked"])
    expect(card.locator(".proposal__by")).to_have_text(says["label"])
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED
    executed = ToolCallTrace.objects.get(event=ToolCallTrace.Event.EXECUTED)
    assert (executed.proposer, executed.approver) == (staff, alice.user)

    page.reload()  # from the stored conversation too
    expect(card.locator("h2")).to_have_text(says["done"])
    expect(card.locator(".proposal__by")).to_have_text(says["label"])


def test_a_card_proposed_while_the_socket_was_away_shows_once_it_is_back(
    page: Page, browser: Browser, server: LiveServer, alice
) -> None:
    """The page's socket is cut (as by a network drop): a card proposed meanwhile shows
    once it is back, and the card it had already is not shown twice."""
    socket = DroppableChatSocket(page)
    sign_in(page, server, "alice", PASSWORD["alice"])
    conversation = Conversation.objects.get(customer=alice)
    _staff, staff_page = staff_holding(browser, server, conversation, "Aigerim")

    first = propose(staff_page, "4242")
    expect(page.locator(f"#proposal-{first.public_id}")).to_have_count(1)
    socket.drop()
    expect(page.locator("#connection")).to_have_text("Reconnecting…")
    second = propose(staff_page, "5505")
    expect(page.locator(f"#proposal-{second.public_id}")).to_have_count(0)  # it missed the push

    socket.come_back()

    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator(f"#proposal-{second.public_id} .proposal__by")).to_have_text(
        "Proposed by Aigerim from support"
    )
    expect(page.locator(f"#proposal-{first.public_id}")).to_have_count(1)
    expect(page.locator(".proposal--pending")).to_have_count(2)


def staff_holding(browser: Browser, server: LiveServer, conversation: Conversation, name: str):
    """A Support staff member who took ``conversation`` (the customer asked for a
    person), signed in on their own page for it."""
    staff = make_support_staff("aigerim", name)

    def hold() -> int:  # pushes notes to the page: not in Playwright's thread
        handoff = queued(conversation)
        handoff_take(staff=staff, pk=handoff.pk)
        return handoff.pk

    (pk,), errors = run_at_once([hold])
    assert not errors
    staff_page = browser.new_context().new_page()
    staff_page.goto(server("/admin/login/?next=/support/"))
    staff_page.locator("#id_username").fill("aigerim")
    staff_page.locator("#id_password").fill("aigerim-pw-123")
    staff_page.locator("input[type=submit]").click()
    staff_page.goto(server(f"/support/{pk}/"))
    return staff, staff_page


def propose(staff_page: Page, card: str) -> Proposal:
    """The holder proposes a block of ``card`` from the staff page's form."""
    staff_page.locator("#propose-tool").select_option("block_card")
    staff_page.locator("#propose-card").select_option(card)
    staff_page.get_by_role("button", name="Propose to the customer").click()
    staff_page.wait_for_load_state()
    expect(staff_page.locator(".errornote, .messagelist .error")).to_have_count(0)
    return Proposal.objects.filter(args__card=card).latest("created_at")
