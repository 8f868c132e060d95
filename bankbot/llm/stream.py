"""A streamed chat completion, read for what a turn needs, a token at a time cheaply.

The SDK's own path costs a turn more than everything else it does while the answer
streams (docs/benchmarks.md, part g): every server-sent event becomes a
``ChatCompletionChunk`` built field by field from its type annotations, and
``ChatCompletionStreamState`` then dumps its whole snapshot of the message so far,
joins the new delta to it and builds the snapshot again — work that grows with the
answer, for every token. Here the request, the connection, the retries, the status
errors, the SSE decoding and the in-stream ``error`` events are still the SDK's own
(``client.post`` with its ``Stream``); only the chunks are plain slotted objects made
from the event's JSON, and ``StreamAccumulator`` keeps the pieces and builds the
final ``ChatCompletion`` once, raising the SDK's own ``LengthFinishReasonError`` and
``ContentFilterFinishReasonError`` as its stream state does.
"""

from __future__ import annotations

from typing import Any, cast

import httpx2
import openai
from openai import Stream
from openai._models import construct_type
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam


class Delta:
    """What a chunk adds to one choice's message."""

    __slots__ = ("content", "refusal", "role", "tool_calls")

    def __init__(self, data: dict[str, Any]) -> None:
        self.content: str | None = data.get("content")
        self.refusal: str | None = data.get("refusal")
        self.role: str | None = data.get("role")
        self.tool_calls: list[dict[str, Any]] = data.get("tool_calls") or []


class ChunkChoice:
    __slots__ = ("delta", "finish_reason", "index")

    def __init__(self, data: dict[str, Any]) -> None:
        self.index: int = data.get("index") or 0
        self.delta = Delta(data.get("delta") or {})
        self.finish_reason: str | None = data.get("finish_reason")


class Chunk:
    """One ``chat.completion.chunk`` event: its choices' deltas, and the event itself."""

    __slots__ = ("choices", "data")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.choices = [ChunkChoice(choice) for choice in data.get("choices") or ()]

    @classmethod
    def build(cls, *, response: httpx2.Response, data: object) -> Chunk:
        """How the SDK's stream makes a chunk of an event (its ModelBuilderProtocol)."""
        return cls(data if isinstance(data, dict) else {})


def stream_chat(client: openai.OpenAI, *, model: str,
                messages: list[ChatCompletionMessageParam],
                tools: list[dict[str, Any]]) -> Stream[Chunk]:
    """``client.chat.completions.create(..., stream=True)``, chunks as ``Chunk``: the
    same request, byte for byte (in create's order). Create passes its parameters
    through the SDK's ``maybe_transform``, which renames and formats the fields its
    types mark so; no field of a chat message or a function tool is marked, so for
    this body it is the identity, and walking the tools' schemas for it cost a turn
    a millisecond a call (tests/llm/test_stream.py checks both)."""
    body = {"model": model, "stream": True, "messages": messages, "tools": tools}
    return client.post("/chat/completions", body=body, cast_to=ChatCompletion, stream=True,
                       stream_cls=Stream[Chunk])


class _ChoiceSoFar:
    __slots__ = ("content", "finish_reason", "refusal", "tool_calls")

    def __init__(self) -> None:
        self.content: list[str] = []
        self.refusal: list[str] = []
        self.finish_reason: str | None = None
        self.tool_calls: dict[int, dict[str, Any]] = {}


class StreamAccumulator:
    """The chunks of one streamed completion, joined once at the end."""

    def __init__(self) -> None:
        self._first: dict[str, Any] | None = None
        self._choices: dict[int, _ChoiceSoFar] = {}
        self._usage: Any = None

    def handle_chunk(self, chunk: Chunk) -> None:
        if self._first is None:
            self._first = chunk.data
        if chunk.data.get("usage"):
            self._usage = chunk.data["usage"]
        for choice in chunk.choices:
            so_far = self._choices.get(choice.index)
            if so_far is None:
                so_far = self._choices[choice.index] = _ChoiceSoFar()
            delta = choice.delta
            if delta.content:
                so_far.content.append(delta.content)
            if delta.refusal:
                so_far.refusal.append(delta.refusal)
            for call in delta.tool_calls:
                index = call.get("index", len(so_far.tool_calls))
                made = so_far.tool_calls.setdefault(index, {
                    "id": "", "type": "function", "function": {"name": "", "arguments": ""}})
                if call.get("id"):
                    made["id"] = call["id"]
                if call.get("type"):
                    made["type"] = call["type"]
                function = call.get("function") or {}
                if function.get("name"):
                    made["function"]["name"] += function["name"]
                if function.get("arguments"):
                    made["function"]["arguments"] += function["arguments"]
            if choice.finish_reason is not None:
                so_far.finish_reason = choice.finish_reason

    def get_final_completion(self) -> ChatCompletion:
        """The whole completion; raises as the SDK's stream state does when the model
        stopped at its length limit or its content filter."""
        first = self._first or {}
        choices = []
        for index in sorted(self._choices):
            so_far = self._choices[index]
            message: dict[str, Any] = {
                "role": "assistant",
                "content": "".join(so_far.content) if so_far.content else None,
                "refusal": "".join(so_far.refusal) if so_far.refusal else None}
            if so_far.tool_calls:
                message["tool_calls"] = [so_far.tool_calls[i] for i in sorted(so_far.tool_calls)]
            choices.append({"index": index, "message": message, "logprobs": None,
                            "finish_reason": so_far.finish_reason})
        completion = cast(ChatCompletion, construct_type(type_=ChatCompletion, value={
            "id": first.get("id", ""), "created": first.get("created", 0),
            "model": first.get("model", ""), "object": "chat.completion",
            "system_fingerprint": first.get("system_fingerprint"), "usage": self._usage,
            "choices": choices}))
        for choice in completion.choices:
            if choice.finish_reason == "length":
                raise openai.LengthFinishReasonError(completion=completion)
            if choice.finish_reason == "content_filter":
                raise openai.ContentFilterFinishReasonError(completion=completion)
        return completion
