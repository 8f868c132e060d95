"""unblock_card end to end: asked in words or by its button, proposed by the harness,
carried out once by the confirm, on the record — and only for a card the customer
blocked themselves."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone, translation

from accounts.models import Card, CardUnblock
from accounts.services import card_block
from bankbot.agent import run_turn
from bankbot.chat import message_customer_add
from bankbot.models import Message
from tests.agent.fakes import ScriptedModel, call, text
from tests.chat.test_proposal_confirm import HTMX, confirm
from tools.models import Proposal, ToolCallTrace

pytestmark = pytest.mark.django_db


def say(conversation, text="", ui_action=None, client=None):
    message, _ = message_customer_add(conversation=conversation, text=text, ui_action=ui_action)
    run_turn(
        user=conversation.customer.user, conversation=conversation, customer_message=message, client=client
    )


@pytest.fixture
def own_block(alice) -> Card:
    card_block(customer=alice, last4="5505", idempotency_key=uuid.uuid4())
    return Card.objects.get(last4="5505")


@pytest.mark.parametrize(
    "text", ["Please unblock my card 5505", "разблокируйте карту 5505", "unblock my card"]
)
def test_asking_proposes_the_unblock_and_one_click_carries_it_out(
    browser_for, alice, alice_conversation, own_block, text
):
    say(alice_conversation, text)

    proposal = Proposal.objects.get()
    assert (proposal.tool, proposal.args) == ("unblock_card", {"card": "5505"})
    assert Card.objects.get(last4="5505").status == "blocked"  # nothing before the click

    client = browser_for(alice)
    first = confirm(client, proposal, **HTMX)
    again = confirm(client, proposal, **HTMX)

    assert "Card Visa •••• 5505 is unblocked." in first.content.decode()
    assert "Card Visa •••• 5505 is unblocked." in again.content.decode()
    assert Card.objects.get(last4="5505").status == "active"
    record = CardUnblock.objects.get()
    key = proposal.confirmation.idempotency_key
    assert (record.staff_user, record.unblock_key) == (None, key)
    assert proposal.confirmation.response["result"]["changed"] is True
    events = list(ToolCallTrace.objects.filter(tool="unblock_card").values_list("event", flat=True))
    assert events == ["proposed", "executed", "replayed"]


def test_a_card_the_bank_blocked_is_never_proposed(alice, alice_conversation):
    Card.objects.filter(last4="5505").update(
        status="blocked", blocked_at=timezone.now(), blocked_by=Card.BlockedBy.BANK
    )

    say(alice_conversation, "Please unblock my card 5505")

    assert not Proposal.objects.exists()
    denial = ToolCallTrace.objects.get(tool="unblock_card", event="denied")
    assert denial.reason_code == "card_blocked_by_bank"
    assert Card.objects.get(last4="5505").status == "blocked"


def test_an_unblock_request_never_grants_a_block_nor_a_block_request_an_unblock(
    alice, alice_conversation, own_block
):
    say(alice_conversation, "unblock card 4242")  # active: nothing to unblock
    say(alice_conversation, "block card 5505")  # blocked already

    assert not Proposal.objects.exists()
    assert Card.objects.get(last4="4242").status == "active"


def test_the_button_asks_for_it_next_to_a_card_the_customer_blocked(
    browser_for, alice, alice_conversation, own_block
):
    Card.objects.create(
        account=own_block.account,
        last4="9009",
        status="blocked",
        blocked_at=timezone.now(),
        blocked_by=Card.BlockedBy.BANK,
    )
    say(
        alice_conversation,
        "show my cards",
        client=ScriptedModel(call("list_cards", {}), text("Here they are.")).client(),
    )
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()

    assert 'aria-label="Unblock card ending 5505…"' in html
    assert 'aria-label="Block card ending 4242…"' in html
    assert "ending 9009" not in html  # the bank's block: no button at all

    browser_for(alice).post(
        "/messages/",
        {"conversation": str(alice_conversation.public_id), "operation": "unblock_card", "target": "5505"},
    )
    clicked = alice_conversation.messages.filter(role=Message.Role.CUSTOMER).last()
    assert clicked.text == "Unblock card •••• 5505"
    assert Proposal.objects.get().args == {"card": "5505"}


def test_the_card_and_the_button_speak_russian(browser_for, alice, alice_conversation, own_block):
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    client.post(
        "/messages/",
        {"conversation": str(alice_conversation.public_id), "operation": "unblock_card", "target": "5505"},
    )
    assert alice_conversation.messages.filter(role="customer").get().text == (
        "Разблокировать карту •••• 5505"
    )
    proposal = Proposal.objects.get()

    html = confirm(client, proposal, **HTMX).content.decode()

    with translation.override("ru"):
        assert "Карта Visa •••• 5505 разблокирована." in html
