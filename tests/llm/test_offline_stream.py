"""The offline model's wire format: streaming as OpenAI streams, determinism, errors."""

from __future__ import annotations

import json

import httpx2
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm import ModelConfig, make_client
from llm.offline import OfflineModel
from tests.llm.offline_chat import GUARDED_TOOLS, Chat, statement, transaction, turn

URL = "http://offline.invalid/v1/chat/completions"


def events_of(chat: Chat, messages: list) -> list:
    with chat.client.chat.completions.stream(model="offline", messages=messages, tools=chat.tools) as stream:
        return list(stream)


def test_it_streams_text_word_by_word(careful: Chat) -> None:
    rows = [transaction("T-1", "15000.00")]
    messages = careful.turn(
        "statement for October", ("get_statement", {"month": "2026-10"}, statement(*rows))
    )

    events = events_of(careful, messages)

    # The opening chunk carries the role and an empty content, as OpenAI's does.
    deltas = [e.delta for e in events if e.type == "content.delta" and e.delta]
    done = [event.content for event in events if event.type == "content.done"]
    assert done == ["Your statement for October 2026 has 1 transaction, 15,000.00\u00a0₸ in total."]
    assert "".join(deltas) == done[0]
    assert len(deltas) == len(done[0].split())


def test_it_streams_tool_arguments_in_pieces(careful: Chat) -> None:
    messages = careful.turn("dispute T-10452 for 5000")

    events = events_of(careful, messages)

    pieces = [e.arguments_delta for e in events if e.type == "tool_calls.function.arguments.delta"]
    done = [e for e in events if e.type == "tool_calls.function.arguments.done"]
    assert len(pieces) > 3
    assert len(done) == 1 and done[0].name == "raise_dispute"
    assert json.loads("".join(pieces)) == {
        "transaction": "T-10452",
        "amount": "5000.00",
        "reason": "Customer does not recognise this charge",
    }
    # The SDK validated the strict schema while parsing.
    assert done[0].parsed_arguments.amount == "5000.00"


def test_it_sends_id_and_name_before_the_arguments(careful: Chat) -> None:
    stream = careful.client.chat.completions.create(
        model="offline",
        messages=careful.turn("block my card 4242"),
        tools=GUARDED_TOOLS,
        stream=True,
    )
    chunks = list(stream)

    first_call = next(c for c in chunks if c.choices and c.choices[0].delta.tool_calls)
    opening = first_call.choices[0].delta.tool_calls[0]
    assert opening.id.startswith("call_")
    assert opening.function.name == "block_card"
    assert opening.function.arguments == ""
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [c.choices[0].finish_reason for c in chunks][-1] == "tool_calls"
    assert len({chunk.id for chunk in chunks}) == 1


def test_it_finishes_text_with_stop(careful: Chat) -> None:
    stream = careful.client.chat.completions.create(
        model="offline", messages=careful.turn("hello"), tools=GUARDED_TOOLS, stream=True
    )

    assert [chunk.choices[0].finish_reason for chunk in stream][-1] == "stop"


def test_it_reports_usage_when_asked(careful: Chat) -> None:
    stream = careful.client.chat.completions.create(
        model="offline",
        messages=careful.turn("hello"),
        stream=True,
        stream_options={"include_usage": True},
    )

    last = list(stream)[-1]

    assert last.choices == []
    assert last.usage.completion_tokens > 0


def test_it_finishes_a_plain_completion_with_the_right_reason(careful: Chat) -> None:
    completion = careful.client.chat.completions.create(
        model="offline", messages=careful.turn("block my card 4242"), tools=GUARDED_TOOLS
    )

    assert completion.choices[0].finish_reason == "tool_calls"
    assert completion.object == "chat.completion"
    assert completion.model == "offline"


def test_it_answers_the_same_request_with_the_same_bytes() -> None:
    body = {
        "model": "offline",
        "messages": turn("block my card 4242"),
        "tools": GUARDED_TOOLS,
        "stream": True,
    }
    model = OfflineModel()

    first = model(httpx2.Request("POST", URL, json=body)).content
    second = model(httpx2.Request("POST", URL, json=body)).content

    assert first == second
    assert b"block_card" in first


def test_it_derives_ids_from_the_request(careful: Chat) -> None:
    one = careful.client.chat.completions.create(
        model="offline", messages=careful.turn("block my card 4242"), tools=GUARDED_TOOLS
    )
    again = careful.client.chat.completions.create(
        model="offline", messages=careful.turn("block my card 4242"), tools=GUARDED_TOOLS
    )
    other = careful.client.chat.completions.create(
        model="offline", messages=careful.turn("block my card 1234"), tools=GUARDED_TOOLS
    )

    assert one.id == again.id
    assert one.choices[0].message.tool_calls[0].id == again.choices[0].message.tool_calls[0].id
    assert one.id != other.id


def test_it_answers_unknown_paths_with_an_openai_shaped_404() -> None:
    client = make_client(ModelConfig(max_retries=0))

    with pytest.raises(openai.NotFoundError) as raised:
        client.embeddings.create(model="offline", input="hello")

    assert raised.value.status_code == 404
    assert raised.value.body["type"] == "invalid_request_error"
    assert "/v1/embeddings" in raised.value.message


def test_it_rejects_a_body_that_is_not_json() -> None:
    response = OfflineModel()(httpx2.Request("POST", URL, content=b"{not json"))

    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"


def test_it_fails_like_a_server_when_it_breaks(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("bug in the planner")

    monkeypatch.setattr("llm.offline.offline.plan_reply", broken)
    client = make_client(ModelConfig(max_retries=0))

    with pytest.raises(openai.InternalServerError) as raised:
        client.chat.completions.create(model="offline", messages=turn("hello"))

    assert raised.value.body["type"] == "server_error"


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=120), description=st.text(max_size=120))
def test_it_answers_anything_a_customer_or_merchant_writes(text: str, description: str) -> None:
    """Whatever the words, a well-formed reply: a text or offered tool calls."""
    step = ("get_statement", {"month": "2026-10"}, statement(transaction(description=description)))
    for personality in ("careful", "compromised"):
        model = OfflineModel(personality)
        for messages in (turn(text), turn(text, step)):
            body = {"model": "offline", "messages": messages, "tools": GUARDED_TOOLS}
            response = model(httpx2.Request("POST", URL, json=body))

            assert response.status_code == 200
            message = response.json()["choices"][0]["message"]
            names = {call["function"]["name"] for call in message.get("tool_calls", [])}
            assert message["content"] or names
            assert names <= {tool["function"]["name"] for tool in GUARDED_TOOLS}
