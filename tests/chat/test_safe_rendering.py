"""Text written by a merchant or the model is printed as text: escaped, inert.
Pages carry a strict Content-Security-Policy and no inline script."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone

from accounts.models import Transaction
from bankbot.agent import TurnEvent
from bankbot.fragments import render_event
from tests.chat.helpers import HOSTILE, statement_request
from tests.chat.html_checks import (
    active_attributes,
    htmx_request_attributes,
    inline_scripts,
    remote_sources,
)
from tests.factories import days_ago, make_proposal

pytestmark = pytest.mark.django_db

ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=//elsewhere.example/x.png&gt;"


@pytest.fixture
def hostile(alice):
    txn = Transaction.objects.filter(reference="T-1001").get()
    Transaction.objects.filter(pk=txn.pk).update(
        description=HOSTILE, merchant="Shop <img src=//elsewhere.example>"
    )
    return txn


def assert_inert(html: str) -> None:
    assert "<script>alert" not in html and "<img src=//elsewhere" not in html
    assert inline_scripts(html) == []
    assert active_attributes(html) == []
    assert remote_sources(html) == []
    assert all(url.startswith("/proposals/") for url in htmx_request_attributes(html))


def test_every_page_sends_the_content_security_policy(browser_for, alice):
    for response in (browser_for(alice).get("/statement/"), browser_for(alice).get("/login/")):
        policy = response["Content-Security-Policy"]
        for directive in (
            "default-src 'self'",
            "script-src 'self'",
            "img-src 'self' data:",
            "style-src 'self'",
            "frame-ancestors 'none'",
            "form-action 'self'",
            "base-uri 'none'",
        ):
            assert directive in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        # Only this site's own origin, which covers its WebSocket (ws: or wss: to the
        # same host and port): no connection to any other host, over any scheme.
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
        assert directives["connect-src"] == "'self'"


def test_htmx_runs_without_eval_and_from_this_site(browser_for, alice, alice_conversation):
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html).group(1)
    config = json.loads(meta)
    assert config["allowEval"] is False and config["includeIndicatorStyles"] is False
    assert config["allowScriptTags"] is False
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert "/static/django_htmx/htmx-2.min.js" in scripts
    assert "/static/django_htmx/ext/hx-ws-2.min.js" in scripts
    assert_inert(html)


def test_the_login_page_has_no_inline_script(client):
    assert_inert(client.get("/login/").content.decode())


def test_the_statement_page_escapes_merchant_text(browser_for, hostile):
    month = f"{timezone.localdate(days_ago(5)):%Y-%m}"
    html = browser_for(hostile.account.customer).get(f"/statement/?month={month}").content.decode()
    assert ESCAPED in html and "hx-get=&quot;/admin/&quot;" in html
    assert "Shop &lt;img src=//elsewhere.example&gt;" in html
    assert_inert(html)


def test_the_chat_history_escapes_merchant_text(browser_for, hostile, alice_conversation):
    client = browser_for(hostile.account.customer)
    client.post(
        "/messages/", {"conversation": str(alice_conversation.public_id), "text": statement_request()}
    )
    html = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert ESCAPED in html
    assert_inert(html)


def test_streamed_fragments_escape_tool_and_model_text(alice_conversation):
    row = {
        "reference": "T-1001",
        "posted_at": "2026-11-01",
        "amount_kzt": "1.00",
        "card": "4242",
        "merchant": HOSTILE,
        "description": HOSTILE,
    }
    table = render_event(
        TurnEvent(
            "tool",
            text="get_statement",
            data={
                "tool": "get_statement",
                "status": "ok",
                "data": {
                    "month": "2026-11",
                    "transactions": [row],
                    "count": 1,
                    "total_kzt": "1.00",
                    "has_more": False,
                },
            },
        ),
        turn="a" * 12,
        conversation=alice_conversation,
    )
    token = render_event(TurnEvent("token", text=HOSTILE), turn="a" * 12, conversation=alice_conversation)
    final = render_event(TurnEvent("final", text=HOSTILE), turn="a" * 12, conversation=alice_conversation)
    for html in (table, token, final):
        assert ESCAPED in html
        assert_inert(html)


def test_the_confirm_card_escapes_the_external_text_it_warns_about(browser_for, alice, alice_conversation):
    source = {
        "tool": "get_statement",
        "field": "transactions[0].description",
        "author": "merchant",
        "excerpt": HOSTILE,
        "mentions": ["4242"],
    }
    proposal = make_proposal(alice_conversation, sources=[source], card="4242")
    html = (
        browser_for(alice)
        .post(f"/proposals/{proposal.public_id}/decline", HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert "written by a merchant" in html and ESCAPED in html
    assert_inert(html)


def test_the_confirm_card_shows_the_stored_action_not_model_text(browser_for, alice, alice_conversation):
    proposal = make_proposal(
        alice_conversation, "raise_dispute", transaction="T-1001", amount="15000.00", reason="not_recognised"
    )
    html = render_event(
        TurnEvent("proposal", proposal=proposal), turn="b" * 12, conversation=alice_conversation
    )
    assert "Dispute 15,000.00\u00a0₸ at Magnum Cash&amp;Carry on " in html  # from the stored row
    assert "— T-1001" in html
    assert "I don&#x27;t recognise this payment" in html  # the reason code, in words
    assert f'name="digest" value="{proposal.args_digest}"' in html
    assert "written by" not in html  # no external text was read: no warning
