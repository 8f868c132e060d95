"""Accepting a customer's message in few statements (docs/benchmarks.md, part g): the
resent-frame check and the rate limit's count are one query, in the transaction that
holds the customer, and the socket's session check goes to the database thread with
it. What it guards is unchanged: a resent frame is stored once and not counted again,
the limit counts the customer's messages and retries of the last minute in every
conversation (and nobody else's), and a message is refused before anything is
stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext

from bankbot import chat
from bankbot.chat import RATE_LIMIT_MESSAGES, RETRY, message_accept
from bankbot.models import Conversation, Message
from errors import InvalidInput
from tests.chat.helpers import frame
from tests.chat.test_consumer_receipts import receipt

pytestmark = pytest.mark.django_db


def accept(
    conversation: Conversation,
    text: str = "Hello",
    client_message_id: str | None = None,
    ui_action: dict[str, str] | None = None,
) -> Message | None:
    return message_accept(
        conversation=conversation, text=text, client_message_id=client_message_id, ui_action=ui_action
    )


def customer_messages(conversation: Conversation) -> int:
    return conversation.messages.filter(role=Message.Role.CUSTOMER).count()


def test_a_message_is_one_query_besides_its_insert_and_title(alice_conversation):
    with CaptureQueriesContext(connection) as first:
        accept(alice_conversation, client_message_id="c-1")
    alice_conversation.refresh_from_db()
    with CaptureQueriesContext(connection) as second:
        accept(alice_conversation, client_message_id="c-2")
    reads = [q["sql"] for q in second.captured_queries if q["sql"].startswith("SELECT")]
    locks = 1 if connection.features.has_select_for_update else 0  # the customer's row
    assert len(reads) == 1 + locks
    # The first message also titles the conversation; the second has nothing to title.
    assert len(first.captured_queries) == len(second.captured_queries) + 1
    assert alice_conversation.title == "Hello"


def test_a_resent_frame_is_stored_once_and_not_counted_again(alice, alice_conversation):
    stored = accept(alice_conversation, client_message_id="c-1")
    assert stored is not None
    for _ in range(RATE_LIMIT_MESSAGES + 2):
        assert accept(alice_conversation, client_message_id="c-1") is None
    assert customer_messages(alice_conversation) == 1
    # The resends counted nothing: the rest of the limit is still there.
    for n in range(RATE_LIMIT_MESSAGES - 1):
        assert accept(alice_conversation, client_message_id=f"more-{n}") is not None


def test_a_resent_frame_past_the_limit_is_answered_as_resent(alice_conversation):
    for n in range(RATE_LIMIT_MESSAGES):
        accept(alice_conversation, client_message_id=f"c-{n}")
    assert accept(alice_conversation, client_message_id="c-0") is None
    with pytest.raises(InvalidInput) as refused:
        accept(alice_conversation, client_message_id="new")
    assert refused.value.code == "rate_limited"
    assert customer_messages(alice_conversation) == RATE_LIMIT_MESSAGES


def test_the_same_client_id_in_another_conversation_is_another_message(alice, alice_conversation):
    other = Conversation.objects.create(customer=alice)
    assert accept(alice_conversation, client_message_id="c-1") is not None
    assert accept(other, client_message_id="c-1") is not None


@pytest.mark.parametrize("client_message_id", [None, "c-x"])
def test_the_limit_counts_every_conversation_and_retries_of_the_last_minute(
    alice, bob, alice_conversation, bob_conversation, client_message_id
):
    other = Conversation.objects.create(customer=alice)
    for n in range(RATE_LIMIT_MESSAGES - 3):
        accept(other, client_message_id=f"o-{n}")
    # Two retries count; an old message, the bank's notes and bob's messages do not.
    for _ in range(2):
        chat.message_add(
            conversation=alice_conversation,
            role=Message.Role.SYSTEM,
            text="retried",
            payload={"kind": RETRY, "message": 1},
        )
    chat.message_add(conversation=alice_conversation, role=Message.Role.SYSTEM, text="note")
    old = accept(alice_conversation, client_message_id="old")
    assert old is not None
    Message.objects.filter(pk=old.pk).update(
        created_at=old.created_at - chat.RATE_LIMIT_WINDOW - timedelta(seconds=1)
    )
    for n in range(RATE_LIMIT_MESSAGES):
        accept(bob_conversation, client_message_id=f"b-{n}")
    # 7 messages + 2 retries: one more fits, then the limit.
    assert accept(alice_conversation, client_message_id=client_message_id) is not None
    with pytest.raises(InvalidInput) as refused:
        accept(alice_conversation, client_message_id=client_message_id and "c-y")
    assert refused.value.code == "rate_limited"


def test_a_refused_message_stores_nothing(alice_conversation):
    with pytest.raises(InvalidInput) as empty:
        accept(alice_conversation, text="   ", client_message_id="c-1")
    assert empty.value.code == "message_empty"
    with pytest.raises(InvalidInput) as long:
        accept(alice_conversation, text="x" * (chat.MAX_MESSAGE_CHARS + 1), client_message_id="c-2")
    assert long.value.code == "message_too_long"
    with pytest.raises(InvalidInput):
        accept(alice_conversation, client_message_id="\x00bad")
    alice_conversation.refresh_from_db()
    assert not alice_conversation.messages.exists() and alice_conversation.title == ""


def test_a_frame_that_raced_past_the_check_is_answered_as_resent(alice_conversation, monkeypatch):
    # Were the same id stored between the check and the INSERT (it cannot be: every
    # message with an id is stored under the customer's hold), the unique constraint
    # refuses it and the frame is answered as resent, with nothing else written.
    accept(alice_conversation, client_message_id="c-1")
    monkeypatch.setattr(chat, "_resent_and_recent", lambda conversation, client_id: (False, 0))
    assert accept(alice_conversation, text="again", client_message_id="c-1") is None
    assert list(alice_conversation.messages.values_list("text", flat=True)) == ["Hello"]


@pytest.mark.django_db(transaction=True)
async def test_a_session_the_database_cannot_read_stores_nothing(
    connect, alice, alice_conversation, monkeypatch
):
    communicator, _ = await connect(alice_conversation, user=alice.user)

    def unreadable(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("bankbot.socket_sessions.session_lasts", unreadable)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    notice = await communicator.receive_from(timeout=5)
    assert 'id="notices"' in notice and "not reachable right now" in notice
    assert receipt(notice, "c-1", "refused")  # the page keeps the text
    assert not await database_sync_to_async(alice_conversation.messages.exists)()
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_message_takes_one_trip_to_the_database_thread(
    connect, alice, alice_conversation, monkeypatch
):
    import bankbot.consumers as consumers
    import bankbot.message_intake as intake

    trips: list[str] = []
    real = consumers.database_sync_to_async

    def counted(fn):
        trips.append(getattr(fn, "__name__", repr(fn)))
        return real(fn)

    communicator, _ = await connect(alice_conversation, user=alice.user)
    monkeypatch.setattr(consumers, "database_sync_to_async", counted)
    monkeypatch.setattr(intake, "database_sync_to_async", counted)
    monkeypatch.setattr("bankbot.socket_sessions.database_sync_to_async", counted)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await communicator.receive_from(timeout=5)  # the turn's opening fragment
    assert trips == ["session_then"]
    assert await database_sync_to_async(customer_messages)(alice_conversation) == 1
    await communicator.disconnect()
