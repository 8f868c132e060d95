"""A message is stored first, then the turn streams back as out-of-band fragments
ending with the final answer — with the real agent and the offline model."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.utils.html import escape

from bankbot.consumers import ChatConsumer
from bankbot.models import Message
from tests.chat.helpers import frame, receive_until, statement_request
from tools.models import Proposal

pytestmark = pytest.mark.django_db(transaction=True)


def messages_of(conversation) -> list[tuple[str, str]]:
    return list(conversation.messages.values_list("role", "text"))


async def test_it_stores_the_message_before_streaming_the_answer(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello there", client_message_id="c-1"))
    first = await communicator.receive_from(timeout=5)
    # The first fragment echoes the stored message; it is in the database already.
    assert "Hello there" in first and 'hx-swap-oob="beforeend:#messages"' in first
    stored = await database_sync_to_async(messages_of)(alice_conversation)
    assert stored[0] == ("customer", "Hello there")
    rest = await receive_until(communicator, 'data-state="done"')
    turn = re.search(r'id="turn-([0-9a-f]{12})-text"', first).group(1)
    streamed = "".join(streamed_text(rest, turn))
    final = rest[-1]
    answer = (await database_sync_to_async(messages_of)(alice_conversation))[-1]
    assert answer[0] == "assistant"
    assert f'id="turn-{turn}-bubble"' in final
    assert streamed == escape(answer[1]), "all of the streamed text, in order"
    await communicator.disconnect()


def streamed_text(fragments: list[str], turn: str) -> list[str]:
    """The text appended to the turn's bubble, fragment by fragment."""
    return [
        text
        for fragment in fragments
        for text in re.findall(
            rf'<span hx-swap-oob="beforeend:#turn-{turn}-text">(.*?)</span>', fragment, re.S
        )
    ]


async def test_the_answer_text_goes_in_one_frame_with_the_final_bubble_not_word_by_word(
    connect, alice, alice_conversation, monkeypatch
):
    # A clock that never moves: the text is never due by time, only ahead of the
    # next fragment. (With a real one, a slow model's words go every 40 ms.)
    monkeypatch.setattr(ChatConsumer, "stream_clock", staticmethod(lambda: 0.0))
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text=statement_request(), client_message_id="c-1"))
    opening, table, final = await receive_until(communicator, 'data-state="done"')
    turn = re.search(r'id="turn-([0-9a-f]{12})-text"', opening).group(1)
    assert 'class="txn-table statement-rows"' in table
    answer = await database_sync_to_async(alice_conversation.messages.filter(role="assistant").last)()
    assert len(answer.text.split()) > 5  # several words, one frame
    assert streamed_text([final], turn) == [escape(answer.text)]
    assert final.index(f"#turn-{turn}-text") < final.index(f'id="turn-{turn}-bubble"')
    await communicator.disconnect()


async def test_it_streams_a_statement_table(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text=statement_request(), client_message_id="c-1"))
    fragments = await receive_until(communicator, 'data-state="done"')
    table = next(f for f in fragments if 'class="txn-table statement-rows"' in f)
    assert "T-1001" in table and "Magnum Cash&amp;Carry" in table
    assert 'name="operation" value="raise_dispute"' in table
    await communicator.disconnect()


async def test_it_streams_a_confirm_card_for_a_block_button(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(
        text_data=frame(operation="block_card", target="4242", text="ignored", client_message_id="c-1")
    )
    fragments = await receive_until(communicator, 'data-state="done"')
    assert "Block card •••• 4242" in fragments[0]  # the server wrote the text
    card = next(f for f in fragments if 'class="proposal proposal--pending"' in f)
    proposal = await database_sync_to_async(Proposal.objects.get)()
    assert f'value="{proposal.args_digest}"' in card
    assert f"/proposals/{proposal.public_id}/confirm" in card
    message = await database_sync_to_async(Message.objects.filter(role="customer").get)()
    assert message.ui_action == {"operation": "block_card", "card": "4242"}
    await communicator.disconnect()


async def test_it_stores_a_resent_frame_once(connect, alice, alice_conversation):
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="same"))
    await receive_until(communicator, 'data-state="done"')
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="same"))
    # Only its receipt (the page may clear the text): no second turn.
    receipt = await communicator.receive_from(timeout=5)
    assert 'data-state="accepted"' in receipt and "msg--customer" not in receipt
    assert await communicator.receive_nothing(timeout=0.5)
    count = await database_sync_to_async(alice_conversation.messages.filter(role="customer").count)()
    assert count == 1
    await communicator.disconnect()


async def test_it_sends_the_turn_to_every_tab_of_the_conversation(connect, alice, alice_conversation):
    sender, _ = await connect(alice_conversation, user=alice.user)
    other_tab, _ = await connect(alice_conversation, user=alice.user)
    await sender.send_to(text_data=frame(text="Hello", client_message_id="c-1"))
    await receive_until(sender, 'data-state="done"')
    await receive_until(other_tab, 'data-state="done"')
    await sender.disconnect()
    await other_tab.disconnect()
