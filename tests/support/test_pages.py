"""The hand-over's pages: the customer's one post, and staff's queue and conversation
page — each refusing whoever it is not for, before it does anything."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Card
from support.models import Handoff
from support.services import handoff_return, handoff_take

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_customer_asks_in_their_own_conversation_and_is_queued(browser_for, alice, alice_conversation):
    response = browser_for(alice).post(
        "/support/ask", {"conversation": str(alice_conversation.public_id), "reason": "asked"}, **HTMX
    )
    assert response.status_code == 200 and "You asked for a specialist." in response.content.decode()
    handoff = Handoff.objects.get()
    assert (handoff.conversation, handoff.state, handoff.reason, handoff.language) == (
        alice_conversation,
        "queued",
        "asked",
        "en",
    )
    page = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "You are number 1 in the queue for a specialist." in page


def test_without_javascript_the_ask_comes_back_to_the_conversation(browser_for, alice, alice_conversation):
    response = browser_for(alice).post(
        "/support/ask", {"conversation": str(alice_conversation.public_id), "reason": "asked"}
    )
    assert response.status_code == 302 and str(alice_conversation.public_id) in response["Location"]


def test_a_customer_cannot_queue_someone_elses_conversation(browser_for, bob, alice_conversation):
    response = browser_for(bob).post(
        "/support/ask", {"conversation": str(alice_conversation.public_id), "reason": "asked"}, **HTMX
    )
    assert response.status_code == 404
    assert not Handoff.objects.exists()


def test_the_ask_needs_a_csrf_token(alice, alice_conversation):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    response = client.post(
        "/support/ask", {"conversation": str(alice_conversation.public_id), "reason": "asked"}
    )
    assert response.status_code == 403
    assert not Handoff.objects.exists()


def test_staff_pages_refuse_customers_and_staff_outside_the_support_group(browser_for, alice, handoff):
    intern = get_user_model().objects.create_user(username="intern", password="intern-pw-1", is_staff=True)
    assert browser_for(alice).get("/support/").status_code == 302  # to admin's sign-in
    assert browser_for(intern).get("/support/").status_code == 403
    assert browser_for(intern).get(f"/support/{handoff.pk}/").status_code == 403
    assert browser_for(intern).post(f"/support/{handoff.pk}/take").status_code == 403
    assert Handoff.objects.get().state == "queued"


def test_the_queue_lists_who_waits_in_admins_look(browser_for, aigerim, handoff):
    page = browser_for(aigerim).get("/support/").content.decode()
    assert 'id="header"' in page and "Waiting for a person" in page
    assert "Alice" in page and f"/support/{handoff.pk}/" in page
    assert 'hx-trigger="every 3s"' in page


def test_the_conversation_page_shows_the_transcript_language_cards_and_disputes(
    browser_for, aigerim, alice, alice_conversation, say
):
    from tests.agent.fakes import ScriptedModel

    say(alice_conversation, "Can I talk to a human?", client=ScriptedModel().client())
    browser_for(alice).post(
        "/support/ask", {"conversation": str(alice_conversation.public_id), "reason": "asked"}, **HTMX
    )
    handoff = Handoff.objects.get()
    page = browser_for(aigerim).get(f"/support/{handoff.pk}/").content.decode()
    assert "Can I talk to a human?" in page and "specialist" in page
    assert "English" in page
    for card in Card.objects.filter(account__customer=alice):
        assert f"•••• {card.last4}" in page
    assert "Recent disputes" in page and "Take this conversation" in page


def test_taking_then_writing_then_handing_back_through_the_pages(browser_for, aigerim, dias, handoff):
    client = browser_for(aigerim)
    assert client.post(f"/support/{handoff.pk}/take")["Location"] == f"/support/{handoff.pk}/"
    # Held by Aigerim: Dias can neither open, take nor write to it.
    other = browser_for(dias)
    assert other.get(f"/support/{handoff.pk}/").status_code == 404
    assert other.post(f"/support/{handoff.pk}/take").status_code == 404
    assert other.post(f"/support/{handoff.pk}/say", {"text": "Me too"}).status_code == 404
    assert other.post(f"/support/{handoff.pk}/hand-back").status_code == 404
    page = client.get(f"/support/{handoff.pk}/").content.decode()
    assert "Hand back to the assistant" in page and 'id="support-propose"' in page
    assert client.post(f"/support/{handoff.pk}/say", {"text": "Hello Alice"}).status_code == 302
    assert "Hello Alice" in client.get(f"/support/{handoff.pk}/", **HTMX).content.decode()
    assert client.post(f"/support/{handoff.pk}/hand-back")["Location"] == "/support/"
    assert client.get(f"/support/{handoff.pk}/").status_code == 404  # no longer theirs to open
    assert Handoff.objects.get().state == "returned"


def test_an_empty_message_is_refused_on_the_page(browser_for, aigerim, handoff):
    handoff_take(staff=aigerim, pk=handoff.pk)
    response = browser_for(aigerim).post(f"/support/{handoff.pk}/say", {"text": "  "})
    assert response.status_code == 409 and "Write a message first." in response.content.decode()


def test_a_returned_or_closed_conversation_is_not_found_for_anyone(browser_for, aigerim, dias, handoff):
    handoff_take(staff=aigerim, pk=handoff.pk)
    handoff_return(staff=aigerim, pk=handoff.pk)
    for who in (aigerim, dias):
        assert browser_for(who).get(f"/support/{handoff.pk}/").status_code == 404
        assert browser_for(who).post(f"/support/{handoff.pk}/take").status_code == 404


@pytest.mark.parametrize("path", ["/support/", "/support/1/"])
def test_staff_pages_are_never_cached(browser_for, aigerim, handoff, path):
    response = browser_for(aigerim).get(path.replace("1", str(handoff.pk)))
    assert "no-store" in response["Cache-Control"]


def test_the_russian_staff_page_is_in_russian(browser_for, aigerim, handoff):
    client = browser_for(aigerim)
    client.cookies["django_language"] = "ru"
    page = client.get("/support/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ждут человека" in page
