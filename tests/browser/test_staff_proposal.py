"""A card support staff propose appears live on the customer's open chat page, labelled
with who proposed it, and only the customer's click carries it out (EN and RU).

The test calls ``propose_for_customer`` itself, as the staff page would: from another
process than the server's, so the card reaches the page through the shared channel
layer — Redis, as with several workers (hence the ``redis`` mark; the suite's run on
PostgreSQL and Redis runs it)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from accounts.models import Card
from bankbot.models import Conversation
from bankbot.staff_proposals import propose_for_customer
from tests.browser.helpers import PASSWORD, DroppableChatSocket, LiveServer, sign_in
from tests.threads import run_at_once
from tools.models import Proposal, ToolCallTrace

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

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
    page: Page, server: LiveServer, alice, lang: str
) -> None:
    says = SAYS[lang]
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(says["connected"])
    staff = get_user_model().objects.create_user(
        username="support", password="support-pw-123", is_staff=True, first_name=says["name"]
    )
    conversation = Conversation.objects.get(customer=alice)  # the one the page shows

    # In a thread of its own, as a request of the staff page's would run (Playwright
    # keeps an event loop running in this one).
    (proposal,), errors = run_at_once(
        [
            lambda: propose_for_customer(
                conversation=conversation, staff=staff, tool="block_card", arguments={"card": "4242"}
            )
        ]
    )
    assert not errors and isinstance(proposal, Proposal)

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
    page: Page, server: LiveServer, alice
) -> None:
    """The page's socket is cut (as by a network drop): a card proposed meanwhile shows
    once it is back, and the card it had already is not shown twice."""
    socket = DroppableChatSocket(page)
    sign_in(page, server, "alice", PASSWORD["alice"])
    staff = get_user_model().objects.create_user(
        username="support", password="support-pw-123", is_staff=True, first_name="Aigerim"
    )
    conversation = Conversation.objects.get(customer=alice)

    def propose(card: str) -> Proposal:
        (proposal,), errors = run_at_once(
            [
                lambda: propose_for_customer(
                    conversation=conversation, staff=staff, tool="block_card", arguments={"card": card}
                )
            ]
        )
        assert not errors and isinstance(proposal, Proposal)
        return proposal

    first = propose("4242")
    expect(page.locator(f"#proposal-{first.public_id}")).to_have_count(1)
    socket.drop()
    expect(page.locator("#connection")).to_have_text("Reconnecting…")
    second = propose("5505")
    expect(page.locator(f"#proposal-{second.public_id}")).to_have_count(0)  # it missed the push

    socket.come_back()

    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator(f"#proposal-{second.public_id} .proposal__by")).to_have_text(
        "Proposed by Aigerim from support"
    )
    expect(page.locator(f"#proposal-{first.public_id}")).to_have_count(1)
    expect(page.locator(".proposal--pending")).to_have_count(2)
