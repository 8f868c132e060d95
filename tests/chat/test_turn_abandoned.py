"""A turn whose worker died (its lease lapsed without an end: bankbot/turn_store.py)
does not leave the page "in progress" for ever: the page shows it failed, with
Retry, under its own id, and a socket that connects is sent the same; an answer that
was stored after all, or a retry running, is shown as it is. The store here is the
process's memory, its lease made to lapse by hand."""

from __future__ import annotations

import pytest

from bankbot import turn_progress
from bankbot.fragments import timeline
from bankbot.models import Message

pytestmark = pytest.mark.django_db(transaction=True)

BROKE_OFF = "Something went wrong while answering. Your message is saved; press Retry."


@pytest.fixture
def memory_store(settings):
    settings.REDIS_URL = ""  # the embedded default's store, whatever the run's engines
    yield
    turn_progress.reset_for_tests()


def abandon(conversation, message: Message, turn: str) -> None:
    """A turn begun on a worker that then died: nobody renews its lease."""
    progress = turn_progress.begin(conversation=conversation.public_id.hex, message=message.pk, turn=turn)
    turn_progress.record(progress, "<span>partial</span>")
    progress.alive_until -= turn_progress.LEASE_SECONDS + 1


def test_the_page_shows_an_abandoned_turn_failed_with_retry_in_place_of_its_stored_part(alice_conversation):
    question = Message.objects.create(conversation=alice_conversation, role="customer", text="Hi")
    Message.objects.create(
        conversation=alice_conversation, role="assistant", payload={"tool_calls": [{"id": "1"}]}
    )
    items = timeline(alice_conversation, {}, {question.pk: "abc123abc123"})
    assert [item["kind"] for item in items] == ["customer", "turn"]
    assert items[1] == {
        "kind": "turn",
        "id": "abc123abc123",
        "text": BROKE_OFF,
        "failed": True,
        "retry": True,
        "extras": [],
    }


def test_a_stored_failure_of_the_message_keeps_its_own_retry(alice_conversation):
    question = Message.objects.create(conversation=alice_conversation, role="customer", text="Hi")
    Message.objects.create(
        conversation=alice_conversation,
        role="assistant",
        text="The model failed.",
        payload={"error": "model_timeout", "retryable": True},
    )
    items = timeline(alice_conversation, {}, {question.pk: "abc123abc123"})
    assert [(item["kind"], item.get("text"), item.get("retry")) for item in items] == [
        ("customer", None, None),
        ("turn", "The model failed.", True),
    ]


def test_an_answer_stored_or_a_retry_running_wins_over_an_abandoned_turn(alice_conversation):
    question = Message.objects.create(conversation=alice_conversation, role="customer", text="Hi")
    retrying = timeline(alice_conversation, {question.pk: "new123new123"}, {question.pk: "abc123abc123"})
    assert retrying[-1] == {"kind": "turn", "id": "new123new123", "streaming": True, "extras": []}
    Message.objects.create(conversation=alice_conversation, role="assistant", text="Hello, Alice.")
    items = timeline(alice_conversation, {}, {question.pk: "abc123abc123"})
    assert items[-1]["text"] == "Hello, Alice." and not items[-1]["failed"]
    # An older message's abandoned turn: the customer has written since.
    later = Message.objects.create(conversation=alice_conversation, role="customer", text="And?")
    assert timeline(alice_conversation, {}, {question.pk: "abc123abc123"})[-1]["message"] == later


def test_a_page_rendered_after_the_lease_lapsed_shows_the_turn_failed(
    alice, alice_conversation, browser_for, memory_store
):
    question = Message.objects.create(conversation=alice_conversation, role="customer", text="Hi")
    abandon(alice_conversation, question, "abc123abc123")
    html = browser_for(alice).get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert 'id="turn-abc123abc123"' in html and 'data-state="streaming"' not in html
    assert BROKE_OFF.replace(";", "") in html.replace(";", "")


async def test_a_socket_connecting_after_the_lease_lapsed_is_sent_the_turn_failed_with_retry(
    connect, alice, alice_conversation, memory_store
):
    from channels.db import database_sync_to_async

    question = await database_sync_to_async(Message.objects.create)(
        conversation=alice_conversation, role="customer", text="Hi"
    )
    abandon(alice_conversation, question, "abc123abc123")
    socket, connected = await connect(alice_conversation, user=alice.user)
    assert connected
    sent = await socket.receive_from(timeout=5)
    assert 'id="turn-abc123abc123-bubble"' in sent and "partial" not in sent
    assert "Retry" in sent and "Your message is saved" in sent
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_socket_that_saw_the_turn_run_is_sent_it_failed_once_its_lease_lapses(
    connect, alice, alice_conversation, memory_store, monkeypatch
):
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from bankbot import catch_up
    from bankbot.fragments import group_name

    monkeypatch.setattr(catch_up, "WATCH_SECONDS", 0.05)
    question = await database_sync_to_async(Message.objects.create)(
        conversation=alice_conversation, role="customer", text="Hi"
    )
    socket, connected = await connect(alice_conversation, user=alice.user)
    assert connected and await socket.receive_nothing(timeout=0.1)
    progress = turn_progress.begin(
        conversation=alice_conversation.public_id.hex, message=question.pk, turn="t1t1t1t1t1t1"
    )
    await get_channel_layer().group_send(
        group_name(alice_conversation),
        {"type": "chat.fragment", "html": "<span>so far</span>", "turn": "t1t1t1t1t1t1", "seq": 0},
    )
    assert await socket.receive_from(timeout=5) == "<span>so far</span>"
    assert await socket.receive_nothing(timeout=0.3), "running: nothing more"

    progress.alive_until -= turn_progress.LEASE_SECONDS + 1  # its worker died
    sent = await socket.receive_from(timeout=5)
    assert 'id="turn-t1t1t1t1t1t1-bubble"' in sent and "Your message is saved" in sent
    assert await socket.receive_nothing(timeout=0.3), "said once"
    await socket.disconnect()


async def test_a_socket_that_saw_the_turn_end_is_sent_nothing_more(
    connect, alice, alice_conversation, memory_store, monkeypatch
):
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from bankbot import catch_up
    from bankbot.fragments import group_name

    monkeypatch.setattr(catch_up, "WATCH_SECONDS", 0.05)
    question = await database_sync_to_async(Message.objects.create)(
        conversation=alice_conversation, role="customer", text="Hi"
    )
    socket, connected = await connect(alice_conversation, user=alice.user)
    progress = turn_progress.begin(
        conversation=alice_conversation.public_id.hex, message=question.pk, turn="t2t2t2t2t2t2"
    )
    await get_channel_layer().group_send(
        group_name(alice_conversation),
        {"type": "chat.fragment", "html": "<span>done</span>", "turn": "t2t2t2t2t2t2", "seq": 0},
    )
    assert await socket.receive_from(timeout=5) == "<span>done</span>"
    turn_progress.end(progress)
    progress.alive_until -= turn_progress.LEASE_SECONDS + 1
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_the_failed_turn_is_said_in_the_sockets_language(
    connect, alice, alice_conversation, memory_store
):
    from channels.db import database_sync_to_async

    question = await database_sync_to_async(Message.objects.create)(
        conversation=alice_conversation, role="customer", text="Hi"
    )
    abandon(alice_conversation, question, "abc123abc123")
    socket, _ = await connect(alice_conversation, user=alice.user, lang="ru")
    sent = await socket.receive_from(timeout=5)
    assert "Ваше сообщение сохранено" in sent and "Your message" not in sent
    await socket.disconnect()
