"""Every model failure leaves a clear, retryable message, loses nothing, and is traced (G11)."""

from __future__ import annotations

import httpx2
import pytest

from bankbot.models import Message
from tests.agent.fakes import ScriptedModel, call, text
from tools.models import ToolCallTrace


def timeout(request):
    raise httpx2.ReadTimeout("model too slow", request=request)


def unreachable(request):
    raise httpx2.ConnectError("connection refused", request=request)


def server_error(request):
    return httpx2.Response(500, json={"error": {"message": "boom", "type": "server_error"}})


def garbage(request):
    return httpx2.Response(
        200, headers={"content-type": "text/event-stream"}, content=b"data: {this is not json\n\n"
    )


@pytest.mark.parametrize(
    ("reply", "code", "words"),
    [
        (timeout, "model_timeout", "took too long"),
        (unreachable, "model_unreachable", "could not be reached"),
        (server_error, "model_error", "HTTP 500"),
        (garbage, "model_error", "could not be read"),
        (text(""), "empty_reply", "empty answer"),
        ({"content": "Your statement for May shows", "finish": "length"}, "model_truncated", "cut off"),
        ({"content": "", "finish": "content_filter"}, "model_filtered", "withheld"),
    ],
)
def test_a_model_failure_gives_a_clear_retryable_message(alice_conversation, say, reply, code, words):
    answer, events = say(alice_conversation, "show my cards", client=ScriptedModel(reply).client())
    assert events[-1].kind == "error"
    assert words in answer.text and "Retry" in answer.text
    assert answer.payload == {"error": code, "retryable": True}
    assert Message.objects.filter(role="customer", text="show my cards").count() == 1
    trace = ToolCallTrace.objects.get(event="model_error")
    assert trace.reason_code == code and trace.customer == alice_conversation.customer


def test_a_retry_after_a_failure_answers_the_same_stored_message(alice_conversation, say):
    from bankbot.agent import run_turn

    failed, _ = say(alice_conversation, "show my cards", client=ScriptedModel(timeout).client())
    customer_message = Message.objects.get(role="customer")
    answer = run_turn(
        user=alice_conversation.customer.user,
        conversation=alice_conversation,
        customer_message=customer_message,
        client=ScriptedModel(text("You have two cards.")).client(),
    )
    assert answer.text.strip() == "You have two cards."
    assert Message.objects.filter(role="customer").count() == 1


@pytest.mark.parametrize(
    ("bad_call", "code"),
    [
        (call("get_statement", "{not json"), "invalid_json"),
        (call("transfer_money", {"to": "KZ00", "amount": "1"}), "unknown_tool"),
        (call("get_statement", {"month": "2026-11", "account_id": "12345"}), "invalid_arguments"),
    ],
)
def test_a_bad_tool_call_goes_back_to_the_model_as_a_structured_error(
    alice_conversation, say, bad_call, code
):
    import json

    model = ScriptedModel(bad_call, text("Sorry, I could not do that."))
    answer, events = say(alice_conversation, "hello", client=model.client())
    heard = json.loads(model.requests[1]["messages"][-1]["content"])
    assert heard["status"] == "error" and heard["error"]["code"] == code
    assert events[-1].kind == "final"
    assert ToolCallTrace.objects.get(event="denied").reason_code == code


def test_nul_characters_from_the_customer_or_the_model_are_stored_safely(alice_conversation, say):
    """PostgreSQL cannot store NUL; the message and the model's tool call still are."""
    model = ScriptedModel(call("list_cards", '{"x\\u0000": 1}'), text("Done\x00."))
    answer, _ = say(alice_conversation, "cards\x00 please", client=model.client())
    assert Message.objects.get(role="customer").text == "cards\ufffd please"
    assert "\x00" not in answer.text
