"""A socket that connects while a turn runs (a reload, a second tab, a reconnect) is
sent the turn so far, on its own, then the rest once; a page rendered meanwhile shows
the turn in progress under its own id (customer issue, point 1). The model writes
word by word and holds its last sentence until the test lets it go on."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async
from django.utils.html import escape

from bankbot import turn_progress
from bankbot.fragments import timeline
from bankbot.models import Message
from llm.config import ModelConfig
from llm.offline.served import serve_in_thread
from tests.chat.helpers import frame, receive_until
from tests.chat.test_consumer_turn import streamed_text
from tests.paced_model import CAP_SECONDS, PacedServer

pytestmark = pytest.mark.django_db(transaction=True)

SENTENCES = ["Hello, Alice. ", "Your card is fine. ", "Anything else?"]
SO_FAR = "Hello, Alice. Your card is fine. "
WHOLE = "Hello, Alice. Your card is fine. Anything else?"


@pytest.fixture
def paced(settings: object) -> Iterator[PacedServer]:
    server = PacedServer(SENTENCES)
    serve_in_thread(server)
    settings.BANKBOT_MODEL_CONFIG = ModelConfig(  # type: ignore[attr-defined]
        model="paced-model", base_url=f"{server.url}/v1", api_key="k", timeout=CAP_SECONDS, max_retries=0
    )
    yield server
    server.go_on.set()
    server.shutdown()
    server.server_close()


def turn_of(fragment: str) -> str:
    return re.search(r'id="turn-([0-9a-f]{12})-text"', fragment).group(1)


@database_sync_to_async
def chat_page(browser_for, customer, conversation) -> str:
    return browser_for(customer).get(f"/c/{conversation.public_id}/").content.decode()


async def until_held(paced: PacedServer) -> None:
    assert await asyncio.to_thread(paced.held.wait, CAP_SECONDS)


async def test_a_socket_connecting_mid_turn_gets_the_turn_so_far_then_the_rest_once(
    connect, alice, alice_conversation, paced, browser_for
):
    sender, _ = await connect(alice_conversation, user=alice.user)
    await sender.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    turn = turn_of(await sender.receive_from(timeout=5))
    await until_held(paced)
    await receive_until(sender, "fine.")  # the text so far has gone to the group

    # A page rendered now shows the turn in progress, under its own id.
    html = await chat_page(browser_for, alice, alice_conversation)
    assert f'id="turn-{turn}"' in html and 'data-state="streaming"' in html

    late, _ = await connect(alice_conversation, user=alice.user)
    caught_up = await late.receive_from(timeout=5)
    assert caught_up.lstrip().startswith(
        f'<article class="msg msg--assistant" id="turn-{turn}" hx-swap-oob="true">'
    )
    assert "".join(streamed_text([caught_up], turn)) == escape(SO_FAR)

    paced.go_on.set()
    rest = await receive_until(late, 'data-state="done"')
    assert "".join(streamed_text([caught_up, *rest], turn)) == escape(WHOLE), "nothing twice, nothing lost"
    await receive_until(sender, 'data-state="done"')
    for communicator in (sender, late):
        await communicator.disconnect()


async def test_a_socket_connecting_just_after_the_turn_ended_gets_the_answer(
    connect, alice, alice_conversation, browser_for
):
    sender, _ = await connect(alice_conversation, user=alice.user)
    await sender.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    turn = turn_of(await sender.receive_from(timeout=5))
    await receive_until(sender, 'data-state="done"')

    late, _ = await connect(alice_conversation, user=alice.user)
    caught_up = await late.receive_from(timeout=5)
    answer = await database_sync_to_async(alice_conversation.messages.filter(role="assistant").last)()
    assert f'id="turn-{turn}" hx-swap-oob="true"' in caught_up
    assert f'id="turn-{turn}-bubble" data-state="done"' in caught_up
    assert "".join(streamed_text([caught_up], turn)) == escape(answer.text)
    assert await late.receive_nothing(timeout=0.3)
    # The page rendered now shows the stored answer, nothing in progress.
    assert 'data-state="streaming"' not in await chat_page(browser_for, alice, alice_conversation)
    for communicator in (sender, late):
        await communicator.disconnect()


async def test_another_conversations_socket_is_sent_nothing_of_it(
    connect, alice, bob, alice_conversation, bob_conversation
):
    sender, _ = await connect(alice_conversation, user=alice.user)
    await sender.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(sender, 'data-state="done"')
    other, connected = await connect(bob_conversation, user=bob.user)
    assert connected and await other.receive_nothing(timeout=0.3)
    stranger, connected = await connect(alice_conversation, user=bob.user)
    assert not connected
    for communicator in (sender, other):
        await communicator.disconnect()


def test_the_page_shows_a_running_turn_in_progress_in_place_of_its_stored_part(alice_conversation):
    question = Message.objects.create(conversation=alice_conversation, role="customer", text="Hi")
    Message.objects.create(
        conversation=alice_conversation, role="assistant", payload={"tool_calls": [{"id": "1"}]}
    )
    items = timeline(alice_conversation, {question.pk: "abc123abc123"})
    assert [item["kind"] for item in items] == ["customer", "turn"]
    assert items[1] == {"kind": "turn", "id": "abc123abc123", "streaming": True, "extras": []}
    assert timeline(alice_conversation, {})[1]["id"] != "abc123abc123"


def test_a_running_retry_keeps_the_failed_try_above_it_without_its_retry_button(alice_conversation):
    question = Message.objects.create(conversation=alice_conversation, role="customer", text="Hi")
    Message.objects.create(
        conversation=alice_conversation,
        role="assistant",
        text="The model failed.",
        payload={"error": "model_timeout", "retryable": True},
    )
    assert timeline(alice_conversation)[-1]["retry"] is True
    items = timeline(alice_conversation, {question.pk: "abc123abc123"})
    assert [(item["kind"], item.get("failed"), item.get("streaming")) for item in items] == [
        ("customer", None, None),
        ("turn", True, None),
        ("turn", None, True),
    ]
    assert items[1]["retry"] is False


def test_a_turn_is_kept_only_a_while_after_it_ends(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(turn_progress.time, "monotonic", lambda: clock[0])
    progress = turn_progress.begin(conversation="c0ffee", message=7, turn="t1")
    assert turn_progress.record(progress, "<a>") == 0
    assert turn_progress.in_flight("c0ffee") == {7: "t1"}
    turn_progress.end(progress)
    assert turn_progress.in_flight("c0ffee") == {}
    assert turn_progress.replay("c0ffee") == [("t1", ["<a>"])]
    clock[0] += turn_progress.GRACE_SECONDS + 1
    assert turn_progress.replay("c0ffee") == []
