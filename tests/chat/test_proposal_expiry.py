"""A pending confirm card says when it expires, from the server (so without
JavaScript too), and answers GET with its state now: app.js asks when the time
is up, so the card turns expired by itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tools.models import Proposal

pytestmark = pytest.mark.django_db


def page(client, proposal) -> str:
    """The card as the chat page and its swaps render it (chat.html#proposal-card)."""
    return client.get(f"/proposals/{proposal.public_id}/", headers={"HX-Request": "true"}).content.decode()


def test_a_pending_card_says_when_it_expires(browser_for, alice, block_proposal):
    html = page(browser_for(alice), block_proposal)
    expires = timezone.localtime(block_proposal.expires_at)
    assert f"Confirm by {expires:%H:%M}" in html
    assert f'data-expires-at="{int(block_proposal.expires_at.timestamp())}"' in html
    assert f'data-refresh-url="/proposals/{block_proposal.public_id}/"' in html


def test_it_says_so_in_russian(browser_for, alice, block_proposal):
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    expires = timezone.localtime(block_proposal.expires_at)
    assert f"Подтвердите до {expires:%H:%M}" in page(client, block_proposal)


def test_an_answered_card_shows_no_expiry(browser_for, alice, block_proposal):
    client = browser_for(alice)
    client.post(f"/proposals/{block_proposal.public_id}/decline")
    assert "Confirm by" not in page(client, block_proposal)


def test_the_card_answers_as_it_stands_now(browser_for, alice, block_proposal):
    client = browser_for(alice)
    response = client.get(f"/proposals/{block_proposal.public_id}/", headers={"HX-Request": "true"})
    assert response.status_code == 200 and "proposal--pending" in response.content.decode()
    Proposal.objects.filter(pk=block_proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    html = client.get(
        f"/proposals/{block_proposal.public_id}/", headers={"HX-Request": "true"}
    ).content.decode()
    assert "proposal--expired" in html and "This confirmation has expired" in html
    assert ">Confirm</button>" not in html
    assert Proposal.objects.get(pk=block_proposal.pk).status == "pending"  # a GET changes nothing


def test_without_htmx_it_leads_to_the_card_in_its_conversation(browser_for, alice, block_proposal):
    response = browser_for(alice).get(f"/proposals/{block_proposal.public_id}/")
    assert response["Location"] == (
        f"/c/{block_proposal.conversation.public_id}/#proposal-{block_proposal.public_id}"
    )


def test_another_customers_card_is_not_found(browser_for, bob, block_proposal):
    response = browser_for(bob).get(f"/proposals/{block_proposal.public_id}/", headers={"HX-Request": "true"})
    assert response.status_code == 404
    assert "Block card" not in response.content.decode()
