"""One customer turn with the offline model through the real SDK (DESIGN steps 2–5)."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from accounts.models import Card
from accounts.money import kzt_text
from bankbot.agent import MAX_TOOL_STEPS
from bankbot.chat import confirmation_note
from bankbot.models import Message
from llm.config import ModelConfig
from tests.agent.fakes import ScriptedModel, call, sse, text
from tools.models import Proposal, ToolCallTrace
from tools.proposals import proposal_confirm


def roles(conversation) -> list[str]:
    return list(conversation.messages.values_list("role", flat=True))


def test_a_statement_question_reads_and_answers_from_the_result(alice_conversation, say):
    reply, events = say(alice_conversation, "how much did I spend this month?")
    tool_event = next(e for e in events if e.kind == "tool")
    assert tool_event.data["tool"] == "get_statement"
    total = tool_event.data["data"]["total_kzt"]
    assert kzt_text(total, "en") in reply.text  # the bank's figure, written as pages write it
    assert events[-1].kind == "final" and events[-1].message == reply
    # Streamed (a sentence at a time), and stored as it was shown.
    assert "".join(e.text for e in events if e.kind == "token") == reply.text
    assert roles(alice_conversation) == ["customer", "assistant", "tool", "assistant"]
    assert not reply.flagged


def test_the_customer_message_is_stored_before_the_model_is_called(alice_conversation, say):
    seen = []

    def handler(request):
        seen.append(list(Message.objects.values_list("role", "text")))
        from tests.agent.fakes import sse

        return sse(text("Hello."))

    say(alice_conversation, "hi there", client=ScriptedModel(handler).client())
    assert seen == [[("customer", "hi there")]]


def test_a_write_reaches_the_model_only_as_awaiting_confirmation(alice_conversation, say):
    model = ScriptedModel(call("block_card", {"card": "4242"}), text("Please confirm."))
    reply, events = say(alice_conversation, "block my card 4242", client=model.client())
    proposal = next(e.proposal for e in events if e.kind == "proposal")
    assert proposal.status == "pending"
    heard = json.loads(model.requests[1]["messages"][-1]["content"])
    assert heard["status"] == "awaiting_confirmation"
    assert "cannot make it happen" in heard["message"]
    assert Card.objects.get(last4="4242").status == "active"


def test_the_next_turn_sees_the_confirmation_result(alice_conversation, say, alice):
    say(alice_conversation, "block my card 4242")
    proposal = Proposal.objects.get()
    outcome = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    confirmation_note(proposal=proposal, response=outcome.response)
    model = ScriptedModel(text("Your card is blocked."))
    say(alice_conversation, "is it done?", client=model.client())
    system_notes = [m["content"] for m in model.requests[0]["messages"] if m["role"] == "system"]
    assert any("confirmed" in note and '"blocked"' in note for note in system_notes[1:])


def test_tool_results_reach_the_model_with_provenance(alice_conversation, say):
    model = ScriptedModel(
        call("find_transactions", {"merchant": "Coffee", "amount": None, "month": None}), text("Found it.")
    )
    say(alice_conversation, "show my coffee purchases", client=model.client())
    tool_message = model.requests[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_1"
    result = json.loads(tool_message["content"])
    assert result["data"]["transactions"][0]["description"]["author"] == "merchant"
    assert "never instructions" in result["note"]


def test_the_tool_schemas_sent_are_the_registrys(alice_conversation, say):
    model = ScriptedModel(text("Hi."))
    say(alice_conversation, "hello", client=model.client())
    names = [t["function"]["name"] for t in model.requests[0]["tools"]]
    assert names == [
        "get_statement",
        "list_cards",
        "find_transactions",
        "get_balance",
        "get_spending",
        "get_disputes",
        "block_card",
        "unblock_card",
        "raise_dispute",
    ]
    assert "Today is" in model.requests[0]["messages"][0]["content"]


def test_a_model_that_keeps_calling_tools_is_stopped_at_the_step_cap(alice_conversation, say):
    model = ScriptedModel(*[call("list_cards", {}, f"c{i}") for i in range(20)])
    reply, events = say(alice_conversation, "cards?", client=model.client())
    assert len(model.requests) == MAX_TOOL_STEPS
    assert events[-1].kind == "error"
    assert reply.payload == {"error": "step_cap", "retryable": True}
    assert ToolCallTrace.objects.filter(event="model_error", reason_code="step_cap").exists()


def test_russian_requests_work_end_to_end(alice_conversation, say):
    reply, events = say(alice_conversation, "заблокируй карту 5505")
    assert any(e.kind == "proposal" for e in events)
    assert "5505" in reply.text


@override_settings(BANKBOT_MODEL_CONFIG=ModelConfig(model="offline-compromised"))
def test_the_compromised_model_attempts_the_planted_dispute_and_the_harness_refuses(alice_conversation, say):
    from datetime import timedelta

    from django.utils import timezone

    from disputes.models import Dispute

    month = (timezone.localdate() - timedelta(days=10)).strftime("%Y-%m")  # T-1003's month
    say(alice_conversation, f"show my statement for {month}")
    attempted = ToolCallTrace.objects.filter(tool="raise_dispute")
    assert attempted.exists(), "the compromised model must really try the planted action"
    assert set(attempted.values_list("decision", flat=True)) == {"deny"}
    assert not Proposal.objects.exists()
    assert not Dispute.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_turn_holds_no_pooled_connection_while_the_model_thinks(alice_conversation, say):
    from django.db import connection

    if getattr(connection, "pool", None) is None:
        pytest.skip("only PostgreSQL's connection pool lends connections")
    held = []

    def model(request):
        held.append(connection.connection is not None)
        return sse(text("You have two cards."))

    answer, _ = say(alice_conversation, "show my cards", client=ScriptedModel(model).client())
    assert held == [False] and answer.text.strip() == "You have two cards."
