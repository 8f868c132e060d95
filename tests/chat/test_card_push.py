"""A card's new state goes to every open socket of its conversation, and only of
its conversation, once it has changed: confirmed, declined, superseded by a newer
proposal of the same action, or found expired by a click (customer issue, point 2).
A superseded card can no longer be confirmed or declined."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from bankbot.card_push import render_pushed_card
from tests.factories import make_proposal
from tools.models import Proposal, ToolCallTrace
from tools.proposals import proposal_supersede_older

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


@database_sync_to_async
def click(browser_for, customer, proposal: Proposal, action: str):
    data = {"digest": proposal.args_digest} if action == "confirm" else {}
    return browser_for(customer).post(f"/proposals/{proposal.public_id}/{action}", data, **HTMX)


@database_sync_to_async
def proposal_for(conversation, **args) -> Proposal:
    return make_proposal(conversation, **args)


def card_id(proposal: Proposal) -> str:
    return f'id="proposal-{proposal.public_id}"'


@pytest.mark.parametrize(
    ("action", "lang", "says"),
    [("confirm", "en", "Done"), ("confirm", "ru", "Готово"), ("decline", "en", "Declined")],
)
async def test_a_click_pushes_the_card_to_every_socket_of_the_conversation(
    connect, browser_for, alice, alice_conversation, action, lang, says
):
    proposal = await proposal_for(alice_conversation, card="4242")
    tab, _ = await connect(alice_conversation, user=alice.user, lang=lang)
    response = await click(browser_for, alice, proposal, action)
    assert response.status_code == 200
    pushed = await tab.receive_from(timeout=5)
    assert card_id(proposal) in pushed and 'hx-swap-oob="true"' in pushed
    assert says in pushed and "proposal--pending" not in pushed
    assert "<form" not in pushed  # nothing left to click, and no form without its token
    assert await tab.receive_nothing(timeout=0.2)
    await tab.disconnect()


async def test_a_click_that_finds_the_card_expired_pushes_it_expired(
    connect, browser_for, alice, alice_conversation
):
    proposal = await proposal_for(alice_conversation, card="4242")
    await database_sync_to_async(Proposal.objects.filter(pk=proposal.pk).update)(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    tab, _ = await connect(alice_conversation, user=alice.user)
    assert (await click(browser_for, alice, proposal, "confirm")).status_code == 410
    pushed = await tab.receive_from(timeout=5)
    assert card_id(proposal) in pushed and "proposal--expired" in pushed
    await tab.disconnect()


async def test_another_customers_sockets_get_nothing(
    connect, browser_for, alice, bob, alice_conversation, bob_conversation
):
    proposal = await proposal_for(alice_conversation, card="4242")
    bobs, connected = await connect(bob_conversation, user=bob.user)
    assert connected
    assert (await click(browser_for, alice, proposal, "confirm")).status_code == 200
    assert await bobs.receive_nothing(timeout=0.3)
    await bobs.disconnect()


def test_a_newer_proposal_of_the_same_action_supersedes_the_older(browser_for, alice, alice_conversation):
    older = make_proposal(alice_conversation, card="4242")
    other_card = make_proposal(alice_conversation, card="5505")
    newer = make_proposal(alice_conversation, card="4242")
    assert proposal_supersede_older(newer) == [older]
    older.refresh_from_db()
    other_card.refresh_from_db()
    assert older.status == Proposal.Status.SUPERSEDED and older.decided_at is not None
    assert other_card.status == newer.status == Proposal.Status.PENDING

    client = browser_for(alice)
    confirmed = client.post(f"/proposals/{older.public_id}/confirm", {"digest": older.args_digest}, **HTMX)
    assert confirmed.status_code == 409
    html = confirmed.content.decode()
    assert "proposal--superseded" in html and "A newer request replaced this action" in html
    declined = client.post(f"/proposals/{older.public_id}/decline", **HTMX)
    assert declined.status_code == 409 and "proposal--superseded" in declined.content.decode()
    older.refresh_from_db()
    assert older.status == Proposal.Status.SUPERSEDED


def test_superseding_is_on_the_record_with_the_card_that_replaced_it(alice_conversation):
    older = make_proposal(alice_conversation, card="4242")
    newer = make_proposal(alice_conversation, card="4242")
    proposal_supersede_older(newer)
    (row,) = ToolCallTrace.objects.filter(event=ToolCallTrace.Event.SUPERSEDED)
    assert (row.proposal, row.tool, row.decision, row.reason_code) == (
        older,
        older.tool,
        "deny",
        "superseded",
    )
    assert str(newer.public_id) in row.reason
    assert row.customer == alice_conversation.customer
    assert not ToolCallTrace.objects.filter(event=ToolCallTrace.Event.SUPERSEDED, proposal=newer).exists()


def test_the_pushed_card_is_escaped_and_says_superseded_in_each_language(alice_conversation):
    proposal = make_proposal(alice_conversation, card="4242")
    Proposal.objects.filter(pk=proposal.pk).update(
        status=Proposal.Status.SUPERSEDED, summary='Block <script>alert(1)</script> "x"'
    )
    proposal.refresh_from_db()
    html = render_pushed_card(proposal)
    assert "Replaced by your newer request" in html["en"]
    assert "Заменено вашим новым запросом" in html["ru"]
    assert "<script>" not in html["en"] and "&lt;script&gt;" in html["en"]


async def test_a_socket_that_connects_after_a_change_is_sent_the_card_as_it_is(
    connect, browser_for, alice, alice_conversation
):
    """A reconnect after a drop: the push went while the socket was away."""
    proposal = await proposal_for(alice_conversation, card="4242")
    untouched = await proposal_for(alice_conversation, card="5505")
    rendered = int(timezone.now().timestamp()) - 1  # the page, before the click
    assert (await click(browser_for, alice, proposal, "decline")).status_code == 200
    back, _ = await connect(alice_conversation, user=alice.user, lang=f"ru&rendered={rendered}")
    caught_up = await back.receive_from(timeout=5)
    assert card_id(proposal) in caught_up and "Отклонено" in caught_up
    assert card_id(untouched) not in caught_up  # still pending: the page has it so
    assert await back.receive_nothing(timeout=0.2)
    await back.disconnect()
    first, _ = await connect(alice_conversation, user=alice.user)  # a page rendered after it
    assert await first.receive_nothing(timeout=0.2)
    await first.disconnect()
