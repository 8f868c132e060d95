"""A button on a row is the customer's explicit choice of one object: the confirm card
for exactly that object opens at once, through the harness, without asking the model —
on any row of any month or page (issue 15, point 1)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import Account, Transaction
from tests.chat.helpers import statement_request
from tests.factories import days_ago
from tools.models import Proposal, ToolCallTrace

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_model(monkeypatch):
    """A click must not reach the model: any call to it fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the model was asked about a click")

    monkeypatch.setattr("bankbot.agent._complete", refuse)


def click(client, conversation, **fields):
    return client.post("/messages/", {"conversation": str(conversation.public_id), **fields})


def test_dispute_on_an_old_row_opens_its_card_without_the_model(
    browser_for, alice, alice_conversation, no_model
):
    account = Account.objects.get(customer=alice)
    for n in range(15):  # fifteen newer rows: T-1004 is far from the newest ten
        Transaction.objects.create(
            account=account,
            reference=f"T-20{n:02d}",
            amount=Decimal(100),
            posted_at=days_ago(1),
            merchant="Shop",
            description="",
        )
    client = browser_for(alice)
    click(client, alice_conversation, operation="raise_dispute", target="T-1004", reason="not_received")

    proposal = Proposal.objects.get()
    assert (proposal.tool, proposal.args) == (
        "raise_dispute",
        {"transaction": "T-1004", "amount": "99000.00", "reason": "not_received"},
    )
    [traced] = ToolCallTrace.objects.filter(event="proposed")
    assert traced.mandate["grants"] == [
        {"operation": "raise_dispute", "target": "T-1004", "amount": "full", "reason": "not_received"}
    ]
    assert traced.mandate["sources"] == [f"message:{alice_conversation.messages.first().pk}"]
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert f'id="proposal-{proposal.public_id}"' in page and "Confirm" in page


def test_block_next_to_a_card_opens_its_card(browser_for, alice, alice_conversation, no_model):
    click(browser_for(alice), alice_conversation, operation="block_card", target="5505")
    proposal = Proposal.objects.get()
    assert (proposal.tool, proposal.args) == ("block_card", {"card": "5505"})


def test_a_click_on_someone_elses_row_proposes_nothing_and_says_so(
    browser_for, alice, alice_conversation, bob, no_model
):
    bobs = Transaction.objects.filter(account__customer=bob).first()
    click(browser_for(alice), alice_conversation, operation="raise_dispute", target=bobs.reference)
    assert not Proposal.objects.exists()
    answer = alice_conversation.messages.filter(role="assistant").last()
    assert answer.text == f"There is no transaction {bobs.reference} on your account."


def test_a_row_past_the_window_says_why_instead_of_offering_dispute(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    month = timezone.localdate(days_ago(200))
    page = client.get(f"/statement/?month={month:%Y-%m}").content.decode()
    assert "T-1002" in page
    assert "Older than 120 days: it can no longer be disputed." in page
    assert 'name="target" value="T-1002"' not in page
    recent = client.get(f"/statement/?month={timezone.localdate(days_ago(5)):%Y-%m}").content.decode()
    assert 'name="target" value="T-1001"' in recent


def test_a_click_past_the_window_is_refused_by_the_rule_not_proposed(
    browser_for, alice, alice_conversation, no_model
):
    click(browser_for(alice), alice_conversation, operation="raise_dispute", target="T-1002")
    assert not Proposal.objects.exists()
    answer = alice_conversation.messages.filter(role="assistant").last()
    assert "120 days" in answer.text


def test_a_clicked_card_carries_no_warning_from_texts_read_before(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    click(client, alice_conversation, text=statement_request(), client_message_id="m-1")
    # The statement the model read holds T-1003's planted instruction about T-1001.
    click(client, alice_conversation, operation="raise_dispute", target="T-1001")
    proposal = Proposal.objects.get()
    assert proposal.external_sources == []
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    card = page[page.index(f'id="proposal-{proposal.public_id}"') :]
    assert "Check this carefully" not in card[: card.index("</section>")]


def test_a_pending_dispute_card_offers_another_reason(browser_for, alice, alice_conversation, no_model):
    client = browser_for(alice)
    click(client, alice_conversation, operation="raise_dispute", target="T-1001", reason="not_received")
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert '<option value="not_received" selected>' in page
    assert 'name="reason"' in page and 'name="target" value="T-1001"' in page
    click(client, alice_conversation, operation="raise_dispute", target="T-1001", reason="charged_twice")
    assert [p.args["reason"] for p in Proposal.objects.order_by("id")] == ["not_received", "charged_twice"]
