"""A retry calls the model as a message does, so it passes the same limits: the
customer's rate limit (a retry of a failed answer counts as a message) and the
worker's turns in flight (BANKBOT_MAX_TURNS_PER_WORKER), over a form post and the socket.

The model here fails on purpose, every call (a content filter): the case where a
customer, or a script, would press Retry again and again. Unmarked, so the storm runs on
SQLite (bin/test) and again on PostgreSQL (.ci/run's second pass).
"""

from __future__ import annotations

import threading

import httpx2
import openai
import pytest
from channels.db import database_sync_to_async

from bankbot import turns
from bankbot.chat import RATE_LIMIT_MESSAGES, message_customer_add, message_retry_accept
from bankbot.models import Message
from errors import InvalidInput
from tests.agent.fakes import sse
from tests.chat.helpers import frame, receive_until
from tests.threads import run_at_once

pytestmark = pytest.mark.django_db(transaction=True)

STORM = 60


class FilteredModel:
    """A model whose every answer its service withholds (finish_reason content_filter),
    counting the calls it gets, from any thread."""

    def __init__(self) -> None:
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, request):
        with self._lock:
            self.calls += 1
        return sse({"content": "", "finish": "content_filter"})

    def client(self) -> openai.OpenAI:
        return openai.OpenAI(
            api_key="test",
            base_url="http://filtered.invalid/v1",
            http_client=httpx2.Client(transport=httpx2.MockTransport(self)),
            max_retries=0,
            timeout=5,
        )


@pytest.fixture
def filtered(monkeypatch) -> FilteredModel:
    model = FilteredModel()
    monkeypatch.setattr("bankbot.agent.client_for", lambda config: model.client())
    return model


def failures(conversation) -> int:
    return conversation.messages.filter(role="assistant", payload__error="model_filtered").count()


def post(client, conversation, **fields):
    return client.post("/messages/", {"conversation": str(conversation.public_id), **fields})


def test_a_retry_storm_makes_no_more_model_calls_than_the_rate_limit(
    browser_for, alice, alice_conversation, filtered
):
    assert post(browser_for(alice), alice_conversation, text="Hello").status_code == 302
    assert filtered.calls == 1 and failures(alice_conversation) == 1
    clients = [browser_for(alice) for _ in range(STORM)]

    results, errors = run_at_once(
        [
            lambda client=client: post(client, alice_conversation, action="retry").status_code
            for client in clients
        ]
    )

    assert errors == []
    # The message and its retries together: the limit, and not one model call more.
    assert filtered.calls == RATE_LIMIT_MESSAGES
    assert failures(alice_conversation) == RATE_LIMIT_MESSAGES
    assert results.count(302) == RATE_LIMIT_MESSAGES - 1
    assert results.count(429) == STORM - (RATE_LIMIT_MESSAGES - 1)
    assert alice_conversation.messages.filter(role="customer").count() == 1  # stored once


def test_retries_at_once_are_counted_one_after_another(alice, alice_conversation):
    message_customer_add(conversation=alice_conversation, text="Hello")

    def retry() -> str:
        try:
            return "accepted" if message_retry_accept(conversation=alice_conversation) else "none"
        except InvalidInput as error:
            return error.code

    results, errors = run_at_once([retry for _ in range(STORM)])

    assert errors == []
    assert results.count("accepted") == RATE_LIMIT_MESSAGES - 1
    assert results.count("rate_limited") == STORM - (RATE_LIMIT_MESSAGES - 1)


def test_a_retry_is_refused_with_the_rate_limits_sentence(browser_for, alice, alice_conversation, filtered):
    client = browser_for(alice)
    post(client, alice_conversation, text="Hello")
    for _ in range(RATE_LIMIT_MESSAGES - 1):
        assert post(client, alice_conversation, action="retry").status_code == 302
    refused = post(client, alice_conversation, action="retry")
    assert refused.status_code == 429
    assert "in the last minute" in refused.content.decode()
    assert filtered.calls == RATE_LIMIT_MESSAGES


async def test_a_retry_on_the_socket_counts_as_a_message(connect, alice, alice_conversation, filtered):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="m-1"))
    await receive_until(communicator, 'data-state="failed"')
    for _ in range(RATE_LIMIT_MESSAGES - 1):
        await communicator.send_to(text_data=frame(action="retry"))
        await receive_until(communicator, 'data-state="failed"')
    await communicator.send_to(text_data=frame(action="retry"))
    refused = await communicator.receive_from(timeout=10)
    assert "in the last minute" in refused
    assert filtered.calls == RATE_LIMIT_MESSAGES
    assert await database_sync_to_async(failures)(alice_conversation) == RATE_LIMIT_MESSAGES
    await communicator.disconnect()


@pytest.mark.parametrize("fields", [{"text": "Hello"}, {"action": "retry"}])
def test_a_form_post_beyond_the_workers_turns_is_told_to_wait(
    browser_for, alice, alice_conversation, filtered, bound, fields
):
    bound(1)
    Message.objects.create(conversation=alice_conversation, role="customer", text="Earlier")
    assert turns.turn_slots().take()  # another customer's turn holds the worker's one slot
    try:
        response = post(browser_for(alice), alice_conversation, **fields)
    finally:
        turns.turn_slots().give_back()
    assert response.status_code == 503
    page = response.content.decode()
    assert "answering many customers" in page and 'value="retry"' in page  # Try again retries
    assert filtered.calls == 0  # the model was not called beyond the bound
    assert turns.turn_slots().in_flight == 0


def test_the_model_and_the_page_never_show_a_retry_note(browser_for, alice, alice_conversation, filtered):
    from bankbot.agent import history_for_model

    client = browser_for(alice)
    post(client, alice_conversation, text="Hello")
    post(client, alice_conversation, action="retry")
    assert alice_conversation.messages.filter(role="system", payload__kind="retry").count() == 1
    assert all("retried" not in str(m.get("content")) for m in history_for_model(alice_conversation))
    page = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "retried" not in page and page.count('data-state="failed"') == 2
