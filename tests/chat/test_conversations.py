"""The customer's conversations: the latest opens at /, earlier ones are listed,
a new one can be started, and nobody else's can be opened."""

from __future__ import annotations

import uuid

import pytest

from bankbot.chat import conversation_public_id
from bankbot.models import Conversation, Message
from errors import InvalidInput

pytestmark = pytest.mark.django_db


def test_it_starts_a_conversation_for_a_first_visit(browser_for, alice):
    response = browser_for(alice).get("/")
    conversation = Conversation.objects.get(customer=alice)
    assert response["Location"] == f"/c/{conversation.public_id}/"


def test_it_opens_the_latest_conversation(browser_for, alice):
    Conversation.objects.create(customer=alice, title="Older")
    latest = Conversation.objects.create(customer=alice, title="Latest")
    assert browser_for(alice).get("/")["Location"] == f"/c/{latest.public_id}/"


def test_it_lists_only_the_customers_own_conversations(browser_for, alice, bob, alice_conversation):
    Conversation.objects.create(customer=alice, title="About my card")
    Conversation.objects.create(customer=bob, title="Bob's secret")
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "About my card" in html and "Bob&#x27;s secret" not in html and "Bob's" not in html


def test_it_starts_a_new_conversation(browser_for, alice, alice_conversation):
    Message.objects.create(conversation=alice_conversation, role="customer", text="Hello")
    response = browser_for(alice).post("/c/new")
    new = Conversation.objects.filter(customer=alice).exclude(pk=alice_conversation.pk).get()
    assert response["Location"] == f"/c/{new.public_id}/"


def test_it_reuses_an_empty_conversation_instead_of_starting_another(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    for _ in range(3):
        response = client.post("/c/new")
        assert response["Location"] == f"/c/{alice_conversation.public_id}/"
    assert Conversation.objects.filter(customer=alice).count() == 1


def test_a_statement_button_uses_the_empty_conversation(browser_for, alice, alice_conversation):
    browser_for(alice).post("/messages/", {"operation": "block_card", "target": "4242"})
    assert Conversation.objects.filter(customer=alice).count() == 1
    assert alice_conversation.messages.filter(role="customer").count() == 1


def test_it_answers_404_for_another_customers_conversation(browser_for, bob, alice_conversation):
    response = browser_for(bob).get(f"/c/{alice_conversation.public_id}/")
    assert response.status_code == 404


@pytest.mark.parametrize("said", ["not-a-uuid", "", "1234", None, 42])
def test_a_conversation_id_from_outside_that_is_not_one_is_refused_where_it_arrives(said):
    with pytest.raises(InvalidInput) as refused:
        conversation_public_id(said)
    assert refused.value.code == "invalid_conversation_id"
    assert refused.value.english == "The conversation id is not valid."


def test_a_conversation_id_from_outside_is_parsed_once():
    public_id = uuid.uuid4()
    assert conversation_public_id(str(public_id)) == public_id
    assert conversation_public_id(public_id) is public_id


def test_a_form_naming_a_malformed_conversation_is_a_404_and_stores_nothing(browser_for, alice):
    response = browser_for(alice).post(
        "/messages/", {"conversation": "not-a-uuid", "text": "Hello", "client_message_id": "m-1"}
    )
    assert response.status_code == 404
    assert not Message.objects.exists()


def test_a_malformed_conversation_url_is_a_404(browser_for, alice):
    assert browser_for(alice).get("/c/not-a-uuid/").status_code == 404


def test_it_connects_the_page_to_its_own_socket(browser_for, alice, alice_conversation):
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    # With when the page was rendered: a reconnect is sent the cards changed since.
    assert f'ws-connect="/ws/chat/{alice_conversation.public_id}/?lang=en&amp;rendered=' in html
    assert 'hx-ext="ws"' in html and "ws-send" in html
    assert 'role="log"' in html and 'aria-live="polite"' in html


def test_it_never_puts_database_ids_in_the_page(browser_for, alice, alice_conversation):
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert f"/c/{alice_conversation.pk}/" not in html
