"""Whatever the model sends, PostgreSQL stores the trace of it (G8, G9).

PostgreSQL's text and jsonb cannot hold a NUL character, which SQLite accepts;
a tool call carrying one must still get a structured error and a trace row,
not an exception from the database.
"""

from __future__ import annotations

import pytest

from tools.models import ToolCallTrace

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_it_denies_a_tool_name_with_a_nul_and_traces_it(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "hi").call("get_statement\x00", "{}")

    assert outcome.status == "error"
    row = ToolCallTrace.objects.get()
    assert row.event == "denied" and row.tool == "get_statement\ufffd"


def test_it_denies_arguments_with_a_nul_and_traces_them(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "block 4242").call(
        "block_card", '{"card": "42\\u000042", "x\\u0000": 1}'
    )

    assert outcome.status == "error"
    assert outcome.error.code
    row = ToolCallTrace.objects.get()
    assert "\x00" not in row.raw_args


def test_it_keeps_a_customer_text_with_a_nul_out_of_the_way(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "block my card 4242\x00 now").call(
        "block_card", {"card": "4242"}
    )

    assert outcome.status == "awaiting_confirmation"
    assert ToolCallTrace.objects.get().event == "proposed"
