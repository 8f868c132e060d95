"""State changes need the CSRF token: in the form field, or in the X-CSRFToken
header htmx sends from <body hx-headers>."""

from __future__ import annotations

import json
import re

import pytest

from accounts.models import Card

pytestmark = pytest.mark.django_db


def page_token(client, conversation) -> str:
    html = client.get(f"/c/{conversation.public_id}/").content.decode()
    headers = re.search(r'<body hx-headers="([^"]+)"', html).group(1)
    return json.loads(headers.replace("&quot;", '"'))["X-CSRFToken"]


@pytest.mark.parametrize("action", ["confirm", "decline"])
def test_it_refuses_a_post_without_the_token(browser_for, alice, block_proposal, action):
    client = browser_for(alice, enforce_csrf_checks=True)
    response = client.post(
        f"/proposals/{block_proposal.public_id}/{action}", {"digest": block_proposal.args_digest}
    )
    assert response.status_code == 403
    assert "Please try again" in response.content.decode()
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"


def test_it_accepts_the_token_htmx_sends_in_the_header(browser_for, alice, block_proposal):
    client = browser_for(alice, enforce_csrf_checks=True)
    token = page_token(client, block_proposal.conversation)
    response = client.post(
        f"/proposals/{block_proposal.public_id}/confirm",
        {"digest": block_proposal.args_digest},
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert Card.objects.get(last4="4242").status == "blocked"


def test_it_refuses_a_chat_message_without_the_token(browser_for, alice, alice_conversation):
    client = browser_for(alice, enforce_csrf_checks=True)
    response = client.post("/messages/", {"conversation": str(alice_conversation.public_id), "text": "hello"})
    assert response.status_code == 403
    assert not alice_conversation.messages.exists()
