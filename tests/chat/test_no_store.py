"""A customer's pages — statements, conversations, confirm cards — are never kept by
a browser's or a proxy's cache (Cache-Control: no-store): after sign-out, Back or a
shared computer shows nothing of them."""

from __future__ import annotations

import pytest

from tests.factories import make_proposal

pytestmark = pytest.mark.django_db


def test_customer_pages_send_no_store(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    proposal = make_proposal(alice_conversation, card="4242")
    responses = [
        client.get("/"),
        client.get(f"/c/{alice_conversation.public_id}/"),
        client.get("/statement/"),
        client.get("/statement/?month=2026-13"),  # an error page shows the cards too
        client.post("/c/new"),
        client.post("/messages/", {"conversation": str(alice_conversation.public_id), "text": "hello"}),
        client.post(f"/proposals/{proposal.public_id}/decline", HTTP_HX_REQUEST="true"),
    ]
    for response in responses:
        assert "no-store" in response["Cache-Control"], response.request["PATH_INFO"]
