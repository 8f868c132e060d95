"""POST /proposals/<public_id>/decline records a "no" and the card says so."""

from __future__ import annotations

import pytest

from accounts.models import Card
from bankbot.models import Message

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def decline(client, proposal, **extra):
    return client.post(f"/proposals/{proposal.public_id}/decline", **extra)


def test_it_declines_and_says_nothing_changed(browser_for, alice, block_proposal):
    html = decline(browser_for(alice), block_proposal, **HTMX).content.decode()
    assert "proposal--declined" in html and "Nothing was changed." in html
    block_proposal.refresh_from_db()
    assert block_proposal.status == "declined"
    assert Card.objects.get(last4="4242").status == "active"
    assert block_proposal.conversation.messages.filter(role=Message.Role.SYSTEM).count() == 1


def test_declining_twice_tells_the_model_once(browser_for, alice, block_proposal):
    client = browser_for(alice)
    first = decline(client, block_proposal, **HTMX)
    second = decline(client, block_proposal, **HTMX)
    assert "proposal--declined" in first.content.decode()
    assert "proposal--declined" in second.content.decode()
    assert block_proposal.conversation.messages.filter(role=Message.Role.SYSTEM).count() == 1


def test_a_declined_proposal_cannot_be_confirmed(browser_for, alice, block_proposal):
    client = browser_for(alice)
    decline(client, block_proposal, **HTMX)
    response = client.post(
        f"/proposals/{block_proposal.public_id}/confirm", {"digest": block_proposal.args_digest}, **HTMX
    )
    assert response.status_code == 409 and "You declined this action" in response.content.decode()
    assert Card.objects.get(last4="4242").status == "active"


def test_it_redirects_back_without_htmx(browser_for, alice, block_proposal):
    response = decline(browser_for(alice), block_proposal)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#proposal-{block_proposal.public_id}")


def test_it_answers_404_for_another_customers_proposal(browser_for, bob, block_proposal):
    assert decline(browser_for(bob), block_proposal, **HTMX).status_code == 404
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"
