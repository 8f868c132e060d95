"""One turn at a time per socket; a failed turn leaves a clear message and a Retry
that answers the same stored message (G11)."""

from __future__ import annotations

import re
import threading

import pytest
from channels.db import database_sync_to_async

from llm import ModelConfig
from tests.chat.helpers import frame, receive_until

pytestmark = pytest.mark.django_db(transaction=True)

UNREACHABLE = ModelConfig(
    model="unreachable-model", base_url="http://127.0.0.1:9/v1", api_key="unused", timeout=5, max_retries=0
)


def roles(conversation) -> list[str]:
    return list(conversation.messages.values_list("role", flat=True))


async def test_it_answers_one_message_at_a_time(connect, alice, alice_conversation, monkeypatch):
    from bankbot import turn_task

    # The first turn waits until the second message has been answered "please wait":
    # with the instant offline model it could otherwise end before the second frame.
    second_refused, real_run = threading.Event(), turn_task.run_turn_in_thread

    held_turns = []

    def held(**kwargs):
        held_turns.append(kwargs["message"].text)
        second_refused.wait(10)
        return real_run(**kwargs)

    monkeypatch.setattr(turn_task, "run_turn_in_thread", held)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await communicator.send_to(text_data=frame(text="Hello again", client_message_id="c-2"))
    refused = await receive_until(communicator, "Please wait for the answer")
    second_refused.set()
    fragments = refused + await receive_until(communicator, 'data-state="done"')
    assert held_turns == ["Hello"]
    assert any("Please wait for the answer" in f for f in fragments)
    assert (await database_sync_to_async(roles)(alice_conversation)).count("customer") == 1
    await communicator.disconnect()


async def test_a_failed_turn_can_be_retried(connect, alice, alice_conversation, settings):
    offline = settings.BANKBOT_MODEL_CONFIG
    settings.BANKBOT_MODEL_CONFIG = UNREACHABLE
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    failed = (await receive_until(communicator, 'data-state="failed"'))[-1]
    assert "could not be reached" in failed and 'name="action" value="retry"' in failed
    turn = re.search(r'name="turn" value="([0-9a-f]{12})"', failed).group(1)

    settings.BANKBOT_MODEL_CONFIG = offline
    await communicator.send_to(text_data=frame(action="retry", turn=turn))
    retried = await receive_until(communicator, 'data-state="done"')
    assert f'<div id="retry-{turn}" hx-swap-oob="delete">' in retried[0]
    stored = await database_sync_to_async(roles)(alice_conversation)
    assert stored.count("customer") == 1 and stored[-1] == "assistant"
    await communicator.disconnect()


async def test_there_is_nothing_to_retry_after_an_answer(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(communicator, 'data-state="done"')
    await communicator.send_to(text_data=frame(action="retry"))
    assert "nothing to retry" in await communicator.receive_from(timeout=5)
    await communicator.disconnect()


async def test_a_crash_in_the_turn_still_ends_with_a_retry(connect, alice, alice_conversation, monkeypatch):
    def crash(**kwargs):
        raise RuntimeError("a bug, not a model failure")

    with monkeypatch.context() as patched:
        patched.setattr("bankbot.agent.run_turn", crash)
        communicator, _ = await connect(alice_conversation, user=alice.user)
        await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
        failed = (await receive_until(communicator, 'data-state="failed"'))[-1]
    assert "Something went wrong while answering" in failed and "Retry" in failed
    assert await database_sync_to_async(roles)(alice_conversation) == ["customer"]
    await communicator.send_to(text_data=frame(action="retry"))
    await receive_until(communicator, 'data-state="done"')
    # The retry is on the record (it counts as a message), then the answer.
    assert await database_sync_to_async(roles)(alice_conversation) == ["customer", "system", "assistant"]
    await communicator.disconnect()


async def test_a_turn_that_ends_late_does_not_free_the_next_turn(
    connect, alice, alice_conversation, monkeypatch
):
    # Turn A has sent its answer, but its task is still finishing when message B
    # starts turn B. A's end must not clear B's flags: a message sent while B runs
    # is still told to wait.
    import asyncio
    import threading

    from bankbot import turn_task
    from bankbot.streaming import TurnStream

    a_may_end, b_may_run = asyncio.Event(), threading.Event()
    closes, runs = [], []
    real_close, real_run = TurnStream.close, turn_task.run_turn_in_thread

    async def close(self):
        await real_close(self)
        closes.append(self)
        if len(closes) == 1:
            await a_may_end.wait()  # turn A's task, held after its last fragment

    def run(**kwargs):
        runs.append(kwargs["message"].text)
        if len(runs) == 2:
            b_may_run.wait(10)  # turn B, held before it answers
        return real_run(**kwargs)

    monkeypatch.setattr(TurnStream, "close", close)
    monkeypatch.setattr(turn_task, "run_turn_in_thread", run)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="a"))
    await receive_until(communicator, 'data-state="done"')
    await communicator.send_to(text_data=frame(text="Hello again", client_message_id="b"))
    await receive_until(communicator, 'data-state="streaming"')  # turn B has begun
    a_may_end.set()  # turn A's task ends while B runs
    for _ in range(10):
        await asyncio.sleep(0)
    await communicator.send_to(text_data=frame(text="Third", client_message_id="c"))
    notice = await communicator.receive_from(timeout=10)
    b_may_run.set()
    assert "Please wait for the answer" in notice
    await receive_until(communicator, 'data-state="done"')
    assert (await database_sync_to_async(roles)(alice_conversation)).count("customer") == 2
    await communicator.disconnect()
