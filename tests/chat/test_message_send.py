"""Without JavaScript the chat is a plain form: the message is stored, answered,
and the page shown again."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from bankbot.chat import RATE_LIMIT_MESSAGES
from bankbot.models import Conversation, Message
from tests.chat.helpers import statement_request
from tools.models import Proposal

pytestmark = pytest.mark.django_db


def post(client, conversation, **fields):
    return client.post("/messages/", {"conversation": str(conversation.public_id), **fields})


def test_it_stores_and_answers_a_message(browser_for, alice, alice_conversation):
    response = post(browser_for(alice), alice_conversation, text=statement_request(), client_message_id="m-1")
    assert response["Location"] == f"/c/{alice_conversation.public_id}/#latest"
    roles = list(alice_conversation.messages.values_list("role", flat=True))
    assert roles[0] == "customer" and roles[-1] == "assistant"
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert 'class="txn-table statement-rows"' in html and "T-1001" in html


def test_it_turns_a_button_into_a_precise_ui_action(browser_for, alice, alice_conversation):
    post(
        browser_for(alice),
        alice_conversation,
        operation="raise_dispute",
        target="t-1001",
        text="something else entirely",
    )
    message = alice_conversation.messages.get(role="customer")
    assert message.ui_action == {"operation": "raise_dispute", "transaction": "T-1001"}
    assert message.text == "Dispute T-1001"
    proposal = Proposal.objects.get(conversation=alice_conversation)
    assert proposal.tool == "raise_dispute" and proposal.args["transaction"] == "T-1001"


def test_a_reason_picked_with_the_button_is_the_proposals_reason(browser_for, alice, alice_conversation):
    post(
        browser_for(alice),
        alice_conversation,
        operation="raise_dispute",
        target="T-1001",
        reason="charged_twice",
    )
    message = alice_conversation.messages.get(role="customer")
    assert message.ui_action == {
        "operation": "raise_dispute",
        "transaction": "T-1001",
        "reason": "charged_twice",
    }
    assert Proposal.objects.get().args["reason"] == "charged_twice"


@pytest.mark.parametrize("reason", ["because", "charged twice; see T-2001"])
def test_a_reason_that_is_not_a_code_is_refused(browser_for, alice, alice_conversation, reason):
    post(browser_for(alice), alice_conversation, operation="raise_dispute", target="T-1001", reason=reason)
    assert not alice_conversation.messages.exists()


def test_it_starts_a_conversation_for_a_statement_page_button(browser_for, alice):
    browser_for(alice).post("/messages/", {"operation": "block_card", "target": "4242"})
    conversation = Conversation.objects.get(customer=alice)
    assert conversation.messages.get(role="customer").ui_action == {"operation": "block_card", "card": "4242"}


def test_it_refuses_an_unknown_operation(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    response = post(client, alice_conversation, operation="transfer", target="T-1001")
    assert response.status_code == 400
    assert not alice_conversation.messages.exists()
    assert "could not be read" in response.content.decode()


def test_it_holds_the_rate_limit(browser_for, alice, alice_conversation):
    for n in range(RATE_LIMIT_MESSAGES):
        Message.objects.create(conversation=alice_conversation, role="customer", text=f"m{n}")
    client = browser_for(alice)
    response = post(client, alice_conversation, text="One more")
    assert alice_conversation.messages.count() == RATE_LIMIT_MESSAGES
    assert response.status_code == 429
    assert "in the last minute" in response.content.decode()


def test_it_answers_404_for_another_customers_conversation(browser_for, bob, alice_conversation):
    response = post(browser_for(bob), alice_conversation, text="hello")
    assert response.status_code == 404
    assert not alice_conversation.messages.exists()


def test_a_failed_answer_shows_a_retry_that_works(browser_for, alice, alice_conversation, settings):
    from tests.chat.test_consumer_retry import UNREACHABLE

    offline, settings.BANKBOT_MODEL_CONFIG = settings.BANKBOT_MODEL_CONFIG, UNREACHABLE
    client = browser_for(alice)
    post(client, alice_conversation, text="Hello")
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert 'data-state="failed"' in page and 'name="action" value="retry"' in page

    settings.BANKBOT_MODEL_CONFIG = offline
    post(client, alice_conversation, action="retry")
    roles = list(alice_conversation.messages.values_list("role", flat=True))
    assert roles.count("customer") == 1 and roles[-1] == "assistant"
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert 'name="action" value="retry"' not in page and 'data-state="done"' in page


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ("text=block%20my%20card%20%ED%A0%80", "could not be read (it shows as �)"),  # not UTF-8
        ("text=broken%20%EF%BF%BD%20text", "could not be read (it shows as �)"),
        ("text=hello&client_message_id=%ED%A0%80", "could not be read (it shows as �)"),
        ("text=hello&client_message_id=a%00b", "The message id is not valid."),
    ],
)
def test_it_refuses_unreadable_text_with_a_sentence(browser_for, alice, alice_conversation, fields, said):
    client = browser_for(alice)
    response = client.post(
        "/messages/",
        f"conversation={alice_conversation.public_id}&{fields}",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert not alice_conversation.messages.exists()
    assert said in response.content.decode()


def test_the_page_after_a_send_opens_at_the_latest_message(browser_for, alice, alice_conversation):
    client = browser_for(alice)
    for text in ("Hello", "Show my cards"):
        response = post(client, alice_conversation, text=text)
    assert response["Location"].endswith("#latest")
    html = client.get(response["Location"]).content.decode()
    assert html.count('id="latest"') == 1
    latest = html.index('id="latest"')
    assert html.index("Show my cards", latest) > latest
    assert "Hello" not in html[latest:]


@pytest.mark.parametrize(
    ("text", "status", "said"),
    [
        ("x" * 5000, 400, "Your message is 5000 characters long; the limit is 2000."),
        ("One more & <b>kept</b>", 429, "in the last minute"),
    ],
)
def test_a_refused_message_comes_back_in_the_composer(
    browser_for, alice, alice_conversation, text, status, said
):
    """Nothing typed is lost without JavaScript either: the text is in the box again,
    marked "Not sent", with the reason; never cut to the limit."""
    if status == 429:
        for n in range(RATE_LIMIT_MESSAGES):
            Message.objects.create(conversation=alice_conversation, role="customer", text=f"m{n}")
    response = post(browser_for(alice), alice_conversation, text=text)
    assert response.status_code == status
    html = response.content.decode()
    composer = html[html.index('id="composer-text"') : html.index("</textarea>")]
    assert escape(text) in composer
    assert "Not sent." in html and said in html
    assert "maxlength" not in composer


def test_the_composer_has_no_maxlength_that_would_cut_a_paste(browser_for, alice, alice_conversation):
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    composer = html[html.index('id="composer-text"') : html.index("</textarea>")]
    assert "maxlength" not in composer and 'data-max-chars="2000"' in composer
