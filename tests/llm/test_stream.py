"""llm/stream.py: the turn's streamed completion, read without the SDK's
per-token models, must come out as the SDK's own stream state builds it — text,
tool calls, finish reasons, its errors — on the real SDK's request and stream."""

from __future__ import annotations

import httpx2
import openai
import pytest
from openai.lib.streaming.chat import ChatCompletionStreamState

from llm.stream import StreamAccumulator, stream_chat
from tests.llm.offline_chat import Chat, statement, transaction

pytestmark = pytest.mark.django_db


def ours(chat: Chat, messages: list) -> tuple[list[str], openai.types.chat.ChatCompletion]:
    state, deltas = StreamAccumulator(), []
    for chunk in stream_chat(chat.client, model="offline", messages=messages, tools=chat.tools):
        state.handle_chunk(chunk)
        deltas += [choice.delta.content for choice in chunk.choices if choice.delta.content]
    return deltas, state.get_final_completion()


def the_sdks(chat: Chat, messages: list) -> tuple[list[str], openai.types.chat.ChatCompletion]:
    state, deltas = ChatCompletionStreamState(), []
    for chunk in chat.client.chat.completions.create(
        model="offline", messages=messages, tools=chat.tools, stream=True
    ):
        state.handle_chunk(chunk)
        deltas += [choice.delta.content for choice in chunk.choices if choice.delta.content]
    return deltas, state.get_final_completion()


@pytest.mark.parametrize(
    "conversation",
    [
        ("hello",),
        (
            "statement for October",
            ("get_statement", {"month": "2026-10"}, statement(transaction("T-1", "15000.00"))),
        ),
        ("dispute T-10452 for 5000",),  # a tool call, its arguments in many pieces
        ("block my card 4242",),
    ],
)
def test_a_streamed_completion_is_the_one_the_sdk_builds(careful: Chat, conversation) -> None:
    messages = careful.turn(*conversation)

    our_deltas, mine = ours(careful, messages)
    sdk_deltas, sdks = the_sdks(careful, messages)

    assert our_deltas == sdk_deltas
    assert len(mine.choices) == len(sdks.choices) == 1
    got, want = mine.choices[0], sdks.choices[0]
    assert got.finish_reason == want.finish_reason
    assert got.message.content == want.message.content
    assert [(c.id, c.type, c.function.name, c.function.arguments) for c in got.message.tool_calls or []] == [
        (c.id, c.type, c.function.name, c.function.arguments) for c in want.message.tool_calls or []
    ]
    # The offline model's ids hash the request: the same bytes went out on both paths.
    assert (mine.id, mine.model) == (sdks.id, sdks.model)


def test_the_sdks_transform_leaves_a_turns_request_as_it_is(careful: Chat) -> None:
    """stream_chat sends the body without the SDK's maybe_transform: it must be the
    identity for what a turn sends (messages with tool calls and results, the tools)."""
    from openai._utils import maybe_transform
    from openai.types.chat.completion_create_params import CompletionCreateParamsStreaming

    messages = careful.turn(
        "statement for October",
        ("get_statement", {"month": "2026-10"}, statement(transaction("T-1", "15000.00"))),
    )
    body = {"model": "offline", "stream": True, "messages": messages, "tools": careful.tools}
    assert maybe_transform(body, CompletionCreateParamsStreaming) == body


def sse(*events: str) -> httpx2.Response:
    body = "".join(f"data: {event}\n\n" for event in events) + "data: [DONE]\n\n"
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())


def client_answering(response: httpx2.Response) -> openai.OpenAI:
    return openai.OpenAI(
        api_key="x",
        base_url="http://model.invalid/v1",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(lambda request: response)),
    )


CHUNK = (
    '{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", '
    '"choices": [{"index": 0, "delta": %s, "finish_reason": %s}]}'
)


@pytest.mark.parametrize(
    ("finish", "error"),
    [
        ('"length"', openai.LengthFinishReasonError),
        ('"content_filter"', openai.ContentFilterFinishReasonError),
    ],
)
def test_a_cut_or_withheld_answer_raises_as_the_sdk_does(finish, error) -> None:
    client = client_answering(
        sse(
            CHUNK % ('{"role": "assistant", "content": "Your"}', "null"),
            CHUNK % ('{"content": " statement"}', "null"),
            CHUNK % ("{}", finish),
        )
    )
    state = StreamAccumulator()
    for chunk in stream_chat(client, model="m", messages=[], tools=[]):
        state.handle_chunk(chunk)
    with pytest.raises(error):
        state.get_final_completion()


def test_an_error_in_the_stream_is_the_sdks_api_error() -> None:
    client = client_answering(
        sse(
            CHUNK % ('{"content": "Hel"}', "null"),
            '{"error": {"message": "overloaded", "type": "server_error"}}',
        )
    )
    with pytest.raises(openai.APIError, match="overloaded"):
        for _ in stream_chat(client, model="m", messages=[], tools=[]):
            pass


def test_a_refused_request_is_the_sdks_status_error() -> None:
    client = client_answering(httpx2.Response(429, json={"error": {"message": "slow down"}}))
    with pytest.raises(openai.RateLimitError):
        stream_chat(client, model="m", messages=[], tools=[])
