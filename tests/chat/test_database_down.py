"""The database unavailable in the views that act (confirm, decline, send): a 503
with a sentence the customer can act on, never a 500, and nothing half-written; and
on any other page, the same 503 page with Try again."""

from __future__ import annotations

import re
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import IntegrityError, InterfaceError, OperationalError, connection
from django.template.loader import render_to_string

from accounts.models import Card
from bankbot.models import Message
from tools.models import Confirmation

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
UNREACHABLE = (
    "The bank&#x27;s systems are not reachable right now. Nothing was done; please try again in a minute."
)


def confirm(client, proposal, **extra):
    return client.post(f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest}, **extra)


def decline(client, proposal, **extra):
    return client.post(f"/proposals/{proposal.public_id}/decline", **extra)


@contextmanager
def database_down():
    """Every query fails, as when PostgreSQL is stopped: the session, the customer, all."""

    def refuse(execute, sql, params, many, context):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    with connection.execute_wrapper(refuse):
        yield


def retry_form(html: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', html, re.S)
    assert form, "the page offers Try again"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2)))
    fields.pop("csrfmiddlewaretoken")
    return {"url": form.group(1), **fields}


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_database_error_in_the_confirmation_is_a_503_and_the_proposal_stays_pending(
    browser_for, alice, block_proposal, error
):
    with mock.patch("tools.proposals.proposal_confirm", side_effect=error("gone")):
        response = confirm(browser_for(alice), block_proposal, **HTMX)
    assert response.status_code == 503
    assert UNREACHABLE in response.content.decode()
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"
    assert Card.objects.get(last4="4242").status == "active"
    assert not Confirmation.objects.exists()
    assert not Message.objects.filter(role=Message.Role.SYSTEM).exists()


def test_the_card_keeps_its_digest_and_confirm_works_again(browser_for, alice, block_proposal):
    client = browser_for(alice)
    with mock.patch("tools.proposals.proposal_confirm", side_effect=OperationalError("gone")):
        response = confirm(client, block_proposal, **HTMX)
    # Only the card's error slot is swapped: its Confirm button, digest and all, stays.
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert html.strip().startswith(f'<div id="proposal-{block_proposal.public_id}-error" hx-swap-oob="true">')
    card = render_to_string("bankbot/chat.html#proposal-card", {"proposal": block_proposal})
    assert f'<div id="proposal-{block_proposal.public_id}-error">' in card  # the slot it fills

    again = confirm(client, block_proposal, **HTMX)
    assert again.status_code == 200 and "proposal--executed" in again.content.decode()
    assert Card.objects.get(last4="4242").status == "blocked"


def test_without_htmx_it_is_a_503_page_whose_try_again_confirms(browser_for, alice, block_proposal):
    client = browser_for(alice)
    with mock.patch("tools.proposals.proposal_confirm", side_effect=OperationalError("gone")):
        response = confirm(client, block_proposal)
    assert response.status_code == 503
    html = response.content.decode()
    assert UNREACHABLE in html and "<h1>Please try again in a minute</h1>" in html
    fields = retry_form(html)
    assert fields == {
        "url": f"/proposals/{block_proposal.public_id}/confirm",
        "digest": block_proposal.args_digest,
    }

    again = client.post(fields.pop("url"), fields)
    assert again.status_code == 302 and Card.objects.get(last4="4242").status == "blocked"


def test_a_database_error_in_the_decline_is_a_503(browser_for, alice, block_proposal):
    with mock.patch("tools.proposals.proposal_decline", side_effect=OperationalError("gone")):
        response = decline(browser_for(alice), block_proposal, **HTMX)
    assert response.status_code == 503 and UNREACHABLE in response.content.decode()
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"


@pytest.mark.parametrize("extra", [HTMX, {}], ids=["htmx", "form"])
def test_a_database_that_is_down_for_every_query_is_still_a_503(browser_for, alice, block_proposal, extra):
    client = browser_for(alice)
    with database_down():
        response = confirm(client, block_proposal, **extra)
    assert response.status_code == 503 and UNREACHABLE in response.content.decode()
    block_proposal.refresh_from_db()
    assert block_proposal.status == "pending"


def test_a_failure_after_the_confirmation_does_not_say_nothing_was_done(browser_for, alice, block_proposal):
    client = browser_for(alice)
    with mock.patch("bankbot.views._proposal_card", side_effect=OperationalError("gone")):
        response = confirm(client, block_proposal, **HTMX)
    assert response.status_code == 503
    html = response.content.decode()
    assert "Nothing was done" not in html and "nothing will be done twice" in html
    assert Card.objects.get(last4="4242").status == "blocked"

    again = confirm(client, block_proposal, **HTMX)  # replays the stored result
    assert again.status_code == 200 and "proposal--executed" in again.content.decode()
    assert Confirmation.objects.count() == 1


def test_a_message_the_database_cannot_store_is_a_503_with_the_same_form(
    browser_for, alice, alice_conversation
):
    client = browser_for(alice)
    fields = {"conversation": str(alice_conversation.public_id), "text": "Hello", "client_message_id": "m-1"}
    with database_down():
        response = client.post("/messages/", fields)
    assert response.status_code == 503
    assert UNREACHABLE in response.content.decode()
    assert not alice_conversation.messages.exists()
    assert retry_form(response.content.decode()) == {"url": "/messages/", **fields}


def test_a_message_stored_but_not_answered_is_answered_by_try_again(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    with mock.patch("bankbot.views.run_turn", side_effect=OperationalError("gone")):
        response = client.post(
            "/messages/",
            {"conversation": str(alice_conversation.public_id), "text": "Hello", "client_message_id": "m-1"},
        )
    assert response.status_code == 503
    html = response.content.decode()
    assert "Your message is saved" in html and "Nothing was done" not in html
    fields = retry_form(html)  # a retry of the stored message, not a second copy of it
    assert fields == {
        "url": "/messages/",
        "conversation": str(alice_conversation.public_id),
        "action": "retry",
    }

    again = client.post(fields.pop("url"), fields)
    assert again.status_code == 302
    roles = list(alice_conversation.messages.values_list("role", flat=True))
    assert roles.count("customer") == 1 and roles[-1] == "assistant"


def test_the_503_page_is_in_the_customers_language(browser_for, alice, block_proposal):
    client = browser_for(alice, HTTP_ACCEPT_LANGUAGE="ru")
    with mock.patch("tools.proposals.proposal_confirm", side_effect=OperationalError("gone")):
        response = confirm(client, block_proposal)
    html = response.content.decode()
    assert '<html lang="ru">' in html and "Системы банка сейчас недоступны." in html


def test_a_bug_is_not_reported_as_an_outage(browser_for, alice, block_proposal):
    with (
        mock.patch("tools.proposals.proposal_confirm", side_effect=IntegrityError("a bug")),
        pytest.raises(IntegrityError),
    ):
        confirm(browser_for(alice), block_proposal, **HTMX)


@pytest.mark.parametrize("path", ["/", "/statement/?month=2026-10", "/admin/", "/lab/", "/no-such-page/"])
def test_any_page_with_the_database_down_is_a_503_that_says_so(browser_for, alice, path):
    client = browser_for(alice)
    with database_down():
        response = client.get(path)
    html = response.content.decode()
    assert response.status_code == 503 and UNREACHABLE in html
    assert f'href="{path}"' in html.replace("&amp;", "&")  # Try again: the same page


def test_a_page_that_fails_for_another_reason_is_still_a_500(browser_for, alice):
    client = browser_for(alice)
    client.raise_request_exception = False
    with mock.patch("bankbot.views.conversations_for", side_effect=RuntimeError("a bug")):
        response = client.get("/")
    assert response.status_code == 500


def test_the_not_found_page_still_renders_when_the_database_is_up(browser_for, alice):
    response = browser_for(alice).get("/no-such-page/")
    assert response.status_code == 404 and "alice" in response.content.decode()


def test_a_sign_in_posted_while_the_database_is_down_is_a_503_that_never_echoes_the_password(client):
    with database_down():
        response = client.post("/login/", {"username": "alice", "password": "hunter2-SECRET"})
    html = response.content.decode()
    assert response.status_code == 503 and UNREACHABLE in html
    assert "hunter2-SECRET" not in html and "<form" not in html


def test_try_again_never_links_to_another_site(browser_for, alice):
    client = browser_for(alice)
    with database_down():
        response = client.get("//evil.example/x")
    html = response.content.decode()
    assert response.status_code == 503 and "evil.example" not in html


def test_the_outage_middleware_keeps_the_asgi_middleware_chain_async():
    # A sync-only middleware makes Django wrap the whole chain in SyncToAsync: a
    # thread hop on every request under Daphne.
    from asgiref.sync import SyncToAsync
    from django.core.handlers.asgi import ASGIHandler

    assert not isinstance(ASGIHandler()._middleware_chain, SyncToAsync)


def test_a_form_that_does_not_keep_its_fields_gets_a_503_without_try_again(browser_for, alice):
    # Only the views marked keeps_its_form (send, confirm, decline) post their fields again.
    client = browser_for(alice)
    with database_down():
        response = client.post("/c/new")
    html = response.content.decode()
    assert response.status_code == 503 and UNREACHABLE in html and "<form" not in html


@pytest.mark.parametrize("status", [403, 404])
def test_an_error_page_that_meets_the_outage_is_a_503(rf, status):
    # Django renders these pages after the middleware: they answer the outage themselves.
    from django.core.exceptions import PermissionDenied
    from django.http import Http404
    from django.urls import get_resolver
    from django.utils.functional import SimpleLazyObject

    def refuse():
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    request = rf.get("/somewhere/")
    request.user = SimpleLazyObject(refuse)  # the page's first query: the session's user
    handler = get_resolver().resolve_error_handler(status)
    response = handler(request, PermissionDenied() if status == 403 else Http404())
    html = response.content.decode()
    assert response.status_code == 503 and UNREACHABLE in html
    assert 'href="/somewhere/"' in html


def test_the_note_to_the_model_commits_with_the_action_or_neither_does(browser_for, alice, block_proposal):
    client = browser_for(alice)
    with mock.patch("bankbot.views.confirmation_note", side_effect=OperationalError("gone")):
        response = confirm(client, block_proposal, **HTMX)
    assert response.status_code == 503 and "Nothing was done" in response.content.decode()
    assert Card.objects.get(last4="4242").status == "active"
    assert not Confirmation.objects.exists()
    assert not block_proposal.conversation.messages.filter(role="system").exists()

    again = confirm(client, block_proposal, **HTMX)
    assert again.status_code == 200 and "proposal--executed" in again.content.decode()
    [note] = block_proposal.conversation.messages.filter(role="system")
    assert note.payload["proposal"] == block_proposal.reference
