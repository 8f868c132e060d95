"""Benchmark (c) compares guarded chat turns with the naive turn its workers play
(bench/naive.py). If the naive turn broke, the ratio would compare answers with
failures: here the naive turn plays and renders like a chat turn."""

from __future__ import annotations

import pytest
from django.utils import timezone

from bankbot.agent import TurnEvent, run_turn
from bankbot.chat import message_customer_add
from bankbot.fragments import render_event
from bench.naive import NAIVE_TURN

pytestmark = pytest.mark.django_db


def test_the_naive_turn_reads_the_statement_and_renders_it(alice, alice_conversation):
    month = timezone.localdate() - timezone.timedelta(days=5)  # T-1001's day
    message, _ = message_customer_add(
        conversation=alice_conversation,
        text=f"Show my statement for {month:%B %Y}",
        client_message_id="naive-1",
    )
    events: list[TurnEvent] = []
    run_turn(
        user=alice.user,
        conversation=alice_conversation,
        customer_message=message,
        on_event=events.append,
        turn_config=NAIVE_TURN,
    )

    kinds = [event.kind for event in events]
    assert "error" not in kinds and kinds[-1] == "final", kinds
    html = "".join(render_event(event, turn="t-1", conversation=alice_conversation) for event in events)
    assert "T-1001" in html and "Magnum Cash&amp;Carry" in html
