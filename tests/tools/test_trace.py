"""Every call and state change leaves an append-only trace row (G9)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tools.models import ToolCallTrace
from tools.proposals import proposal_confirm


def test_the_trace_cannot_be_changed_or_deleted(alice_conversation, harness_for):
    harness_for(alice_conversation).call("list_cards", {})
    row = ToolCallTrace.objects.get()
    row.decision = "rewritten"
    with pytest.raises(PermissionError):
        row.save()
    with pytest.raises(PermissionError):
        row.delete()
    with pytest.raises(PermissionError):
        ToolCallTrace.objects.update(decision="x")
    with pytest.raises(PermissionError):
        ToolCallTrace.objects.all().delete()
    assert ToolCallTrace.objects.get().decision == "ok"


def test_a_confirmed_write_traces_everything_design_asks_for(alice, alice_conversation, harness_for):
    proposal = (
        harness_for(alice_conversation, "block my card 4242").call("block_card", '{"card": "4242"}').proposal
    )
    proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    proposed, executed = ToolCallTrace.objects.filter(proposal=proposal)
    assert proposed.mandate["grants"] == [{"operation": "block_card", "target": "4242"}]
    assert proposed.raw_args == '{"card": "4242"}'
    assert proposed.validated_args == {"card": "4242"}
    assert (proposed.event, executed.event) == ("proposed", "executed")
    assert (proposed.decision, executed.decision) == ("allow", "ok")
    assert executed.approver == alice.user
    assert executed.validated_args == {"card": "4242"}
    assert executed.idempotency_key == proposal.confirmation.idempotency_key
    assert executed.result["result"]["status"] == "blocked"
    assert executed.latency_ms > 0


def test_export_trace_writes_json_lines_since_a_date(alice_conversation, harness_for, tmp_path):
    harness_for(alice_conversation).call("list_cards", {})
    harness_for(alice_conversation).call("nope", {})
    out = tmp_path / "trace.jsonl"
    call_command("export_trace", "--since", "2000-01-01", "--output", str(out))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["event"], r["tool"]) for r in lines] == [("called", "list_cards"), ("denied", "nope")]
    assert lines[0]["customer"] == "alice"
    call_command("export_trace", "--since", "2999-01-01", "--output", str(out))
    assert out.read_text() == ""


def test_export_trace_rejects_a_bad_date():
    with pytest.raises(CommandError, match="give a date"):
        call_command("export_trace", "--since", "last tuesday")


def test_the_database_itself_refuses_to_rewrite_the_trace(alice_conversation, harness_for):
    from django.db import DatabaseError, connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("the append-only trigger is PostgreSQL's (see tools/migrations/0002)")

    harness_for(alice_conversation).call("list_cards", {})
    for statement in ("UPDATE tools_toolcalltrace SET decision = 'x'", "DELETE FROM tools_toolcalltrace"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement)
    assert ToolCallTrace.objects.get().decision == "ok"
