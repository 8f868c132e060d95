"""Bob can neither see nor confirm Alice's proposal."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Card
from tests.browser.helpers import PASSWORD, sign_in
from tests.factories import make_proposal
from tools.models import Confirmation, Proposal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bob_cannot_see_or_confirm_alices_proposal(page: Page, server, alice, bob, alice_conversation):
    proposal = make_proposal(alice_conversation, card="4242")
    sign_in(page, server, "bob", PASSWORD["bob"])
    expect(page.locator(".conversation-list")).not_to_contain_text("4242")

    response = page.goto(server(f"/c/{alice_conversation.public_id}/"))
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    assert page.locator(f"#proposal-{proposal.public_id}").count() == 0

    # Posting the confirm form by hand, with Bob's own valid CSRF token, finds nothing.
    page.goto(server("/"))
    token = page.locator('input[name="csrfmiddlewaretoken"]').first.get_attribute("value")
    answer = page.request.post(
        server(f"/proposals/{proposal.public_id}/confirm"),
        form={"digest": proposal.args_digest, "csrfmiddlewaretoken": token},
        headers={"Referer": server("/")},
    )
    assert answer.status == 404
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.PENDING
    assert not Confirmation.objects.exists()
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
