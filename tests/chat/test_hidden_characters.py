"""Invisible and bidirectional control characters in a merchant's text are shown as
visible markers on the customer's pages — the statement page, a statement in the
chat, a confirm card's excerpts — so they can neither hide words nor reorder them."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import Transaction
from tests.chat.helpers import statement_request
from tests.factories import days_ago, make_proposal
from tests.hidden_text import HIDDEN, assert_shown

pytestmark = pytest.mark.django_db


@pytest.fixture
def hidden(alice):
    Transaction.objects.filter(reference="T-1001").update(merchant=HIDDEN, description=HIDDEN)


def test_the_statement_page_shows_them(browser_for, alice, hidden):
    month = f"{timezone.localdate(days_ago(5)):%Y-%m}"
    assert_shown(browser_for(alice).get(f"/statement/?month={month}").content.decode())


def test_a_statement_in_the_chat_shows_them(browser_for, alice, alice_conversation, hidden):
    client = browser_for(alice)
    client.post(
        "/messages/", {"conversation": str(alice_conversation.public_id), "text": statement_request()}
    )
    html = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert 'class="txn-table statement-rows"' in html
    assert_shown(html)


def test_a_confirm_cards_excerpts_show_them(browser_for, alice, alice_conversation):
    source = {
        "tool": "get_statement",
        "field": "transactions[0].description",
        "author": "merchant",
        "excerpt": HIDDEN,
        "mentions": ["4242"],
    }
    proposal = make_proposal(alice_conversation, sources=[source], card="4242")
    html = (
        browser_for(alice)
        .post(f"/proposals/{proposal.public_id}/decline", HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert "written by a merchant" in html
    assert_shown(html)


def test_a_note_from_the_bank_shows_them(
    browser_for, alice, alice_conversation, staff, django_capture_on_commit_callbacks
):
    from bankbot.models import Message
    from bankbot.news import news_of
    from tests.chat.test_dispute_news import move, open_dispute

    client = browser_for(alice)
    dispute = open_dispute(client, alice_conversation)
    with django_capture_on_commit_callbacks(execute=True):
        move(dispute, staff, "in_review", customer_note=HIDDEN)
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "A note from the bank:" in page
    assert_shown(page)
    # The same note as it arrives live, on an open socket.
    [news] = Message.objects.filter(payload__kind="dispute_update")
    assert_shown(render_to_string("bankbot/stream.html#news", {"item": news_of(news)}))
