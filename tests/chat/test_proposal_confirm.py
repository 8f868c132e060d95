"""POST /proposals/<public_id>/confirm: the card becomes the result, or a clear error."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Card
from bankbot.models import Message
from tests.factories import make_proposal
from tools.models import Confirmation, Proposal

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def confirm(client, proposal, digest=None, **extra):
    return client.post(
        f"/proposals/{proposal.public_id}/confirm",
        {"digest": proposal.args_digest if digest is None else digest},
        **extra,
    )


def test_it_blocks_the_card_and_shows_the_result(browser_for, alice, block_proposal):
    response = confirm(browser_for(alice), block_proposal, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.strip().startswith('<section class="proposal proposal--executed"')  # the partial
    assert "proposal--executed" in html and "Card Visa •••• 4242 is blocked." in html
    assert Card.objects.get(last4="4242").status == "blocked"


def test_it_reads_the_proposal_once_the_locked_fetch_and_renders_what_that_left(
    browser_for, alice, block_proposal
):
    client = browser_for(alice)
    with CaptureQueriesContext(connection) as queries:
        response = confirm(client, block_proposal, **HTMX)
    reads = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("SELECT") and 'FROM "tools_proposal"' in q["sql"]
    ]
    assert len(reads) == 1
    if connection.vendor == "postgresql":  # SQLite has no row locks: its writer lock serves
        assert "FOR UPDATE" in reads[0]
    assert "proposal--executed" in response.content.decode()


def test_it_adds_the_result_to_the_conversation(browser_for, alice, block_proposal):
    confirm(browser_for(alice), block_proposal, **HTMX)
    note = block_proposal.conversation.messages.get(role=Message.Role.SYSTEM)
    assert note.payload["proposal"] == block_proposal.reference


def test_it_shows_the_dispute_reference_status_and_amount(browser_for, alice, alice_conversation):
    proposal = make_proposal(
        alice_conversation, "raise_dispute", transaction="T-1001", amount="15000.00", reason="not_recognised"
    )
    html = confirm(browser_for(alice), proposal, **HTMX).content.decode()
    proposal.refresh_from_db()
    dispute = proposal.result["result"]
    assert f"Dispute {dispute['dispute_id']} is open" in html
    assert "15,000.00" in html and "T-1001" in html
    assert dispute["status"] == "opened"


def test_it_redirects_back_to_the_conversation_without_htmx(browser_for, alice, block_proposal):
    response = confirm(browser_for(alice), block_proposal)
    conversation = block_proposal.conversation
    assert response.status_code == 302
    assert response["Location"] == (f"/c/{conversation.public_id}/#proposal-{block_proposal.public_id}")
    assert Card.objects.get(last4="4242").status == "blocked"


def test_a_second_click_makes_no_second_action(browser_for, alice, block_proposal):
    client = browser_for(alice)
    first = confirm(client, block_proposal, **HTMX)
    second = confirm(client, block_proposal, **HTMX)
    assert second.status_code == 200 and "proposal--executed" in second.content.decode()
    assert first.content == second.content
    assert Confirmation.objects.count() == 1
    assert Message.objects.filter(role=Message.Role.SYSTEM).count() == 1


def test_it_says_when_the_proposal_expired(browser_for, alice, block_proposal):
    Proposal.objects.filter(pk=block_proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = confirm(browser_for(alice), block_proposal, **HTMX)
    assert response.status_code == 410
    html = response.content.decode()
    assert "proposal--expired" in html and "expired" in html
    assert Card.objects.get(last4="4242").status == "active"


def test_it_refuses_a_changed_proposal(browser_for, alice, block_proposal):
    response = confirm(browser_for(alice), block_proposal, digest="0" * 64, **HTMX)
    assert response.status_code == 409
    assert "changed after it was shown to you" in response.content.decode()
    assert Card.objects.get(last4="4242").status == "active"


def test_it_shows_errors_as_a_message_without_htmx(browser_for, alice, block_proposal):
    client = browser_for(alice)
    response = confirm(client, block_proposal, digest="0" * 64)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "changed after it was shown to you" in page


def test_it_answers_404_for_another_customers_proposal(browser_for, bob, block_proposal):
    client = browser_for(bob)
    assert confirm(client, block_proposal).status_code == 404
    response = confirm(client, block_proposal, **HTMX)
    assert response.status_code == 404
    assert "This confirmation was not found." in response.content.decode()
    assert Card.objects.get(last4="4242").status == "active"
    assert not Confirmation.objects.exists()


def test_it_answers_404_for_an_unknown_proposal(browser_for, alice):
    response = browser_for(alice).post(
        "/proposals/00000000-0000-4000-8000-000000000000/confirm", {"digest": "x"}
    )
    assert response.status_code == 404


@pytest.mark.parametrize("action", ["confirm", "decline"])
def test_a_malformed_proposal_id_in_the_url_is_a_404(browser_for, alice, block_proposal, action):
    # The URL's <uuid:…> parses the id: one that is not a UUID never reaches the harness.
    response = browser_for(alice).post(f"/proposals/not-a-uuid/{action}", {"digest": "x"})
    assert response.status_code == 404
    assert Proposal.objects.get().status == "pending"


def test_it_needs_a_signed_in_user(client, block_proposal):
    response = confirm(client, block_proposal)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert Card.objects.get(last4="4242").status == "active"


def test_it_only_accepts_post(browser_for, alice, block_proposal):
    response = browser_for(alice).get(f"/proposals/{block_proposal.public_id}/confirm")
    assert response.status_code == 405


def test_a_confirm_the_database_was_too_busy_to_run_is_a_503_and_stays_clickable(
    browser_for, alice, block_proposal, monkeypatch
):
    from tools import proposals
    from tools.idempotency import TemporarilyUnavailable

    def busy(**kwargs):
        raise TemporarilyUnavailable(
            "The bank's systems are busy. Nothing was done; press Confirm again in a moment."
        )

    monkeypatch.setattr(proposals, "proposal_confirm", busy)
    response = confirm(browser_for(alice), block_proposal, **HTMX)
    assert response.status_code == 503
    assert "Nothing was done" in response.content.decode()
    assert Proposal.objects.get(pk=block_proposal.pk).status == "pending"
    assert Card.objects.get(last4="4242").status == "active"
