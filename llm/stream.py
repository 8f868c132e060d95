"""A streamed chat completion, read for what a turn needs, a token at a time cheaply.

The SDK's own path costs a turn more than everything else it does while the answer
streams (docs/benchmarks.md, part g): every server-sent event becomes a
``ChatCompletionChunk`` built field by field from its type annotations, and
``ChatCompletionStreamState`` then dumps its whole snapshot of the message so far,
joins the new delta to it and builds the snapshot again — work that grows with the
answer, for every token. Here the request, the connection, the retries, the status
errors and the in-stream ``error`` events are still the SDK's own (``client.post``
with its ``Stream``); the chunks are plain slotted objects made from the event's JSON,
and ``StreamAccumulator`` keeps the pieces and builds the final ``ChatCompletion``
once, raising the SDK's own ``LengthFinishReasonError`` and
``ContentFilterFinishReasonError`` as its stream state does.

And a token must not wake the turn's thread: the model's socket is read at most
every ``READ_INTERVAL``, each read taking every event that came meanwhile, decoded a
block at a time (``SSEEvents``, as the SDK's decoder reads them) — what the wake-up
and the SDK's line-at-a-time decoder cost was most of what was left of a token's
cost (docs/benchmarks.md, part g).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, cast

import httpx2
import openai
from openai import Stream
from openai._models import construct_type
from openai._streaming import ServerSentEvent, request_exceptions, timeout_exceptions
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


# The answer is shown a sentence at a time, after its check, and the page gets a frame
# at most every 40 ms: reading the model every 100 ms delays what the customer sees by
# at most that, once a piece, not once a token.
READ_INTERVAL = 0.100  # seconds


class _NetworkStream(Protocol):
    """What ``_PacedReads`` uses of the connection's network stream (httpcore's, the
    response's ``network_stream`` extension): its ``read``, which it replaces while
    the stream is pulled, and what it tells of its socket."""

    read: Callable[[int, float | None], bytes]

    def get_extra_info(self, info: str) -> object: ...


class _PacedReads:
    """The response's network stream, read at most every ``interval`` (from the end
    of one read to the start of the next): ``read`` replaces the stream's own for the
    streamed body. A read that fills its buffer is followed at once (more is waiting);
    so is a TLS read while records are waiting (one read is one TLS record)."""

    def __init__(
        self,
        network_stream: _NetworkStream,
        interval: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.stream, self.interval, self.clock, self.sleep = network_stream, interval, clock, sleep
        self.own_read = network_stream.read
        self.own_read_was_set = "read" in vars(network_stream)
        sock = network_stream.get_extra_info("socket")
        self.tls_pending = getattr(sock, "pending", None)  # an ssl.SSLSocket's
        self.last = -interval  # the first read is not held: the first token goes at once
        self.more = False  # the last read left more waiting

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        wait = self.last + self.interval - self.clock()
        if wait > 0 and not (
            self.more
            or (
                self.tls_pending is not None
                and (self.tls_pending() or self.stream.get_extra_info("is_readable"))
            )
        ):
            self.sleep(wait)  # let the next tokens gather
        data = self.own_read(max_bytes, timeout)
        self.more = len(data) >= max_bytes
        if not self.more:
            self.last = self.clock()
        return data

    def __enter__(self) -> _PacedReads:
        self.stream.read = self.read
        return self

    def __exit__(self, *exc: object) -> None:
        if self.own_read_was_set:
            self.stream.read = self.own_read
        else:
            del self.stream.read  # the stream's class's own again


class SSEEvents:
    """Server-sent events from a stream's byte blocks, as the SDK's ``SSEDecoder`` reads
    them (the WHATWG event-stream rules: CR, LF or CRLF line ends, ``:`` comments,
    ``data`` lines joined by LF, ``id`` without NUL, a numeric ``retry``), a block at a
    time instead of a line at a time."""

    def __init__(self) -> None:
        self._rest = b""
        self._event: str | None = None
        self._data: list[str] = []
        self._id: str | None = None
        self._retry: int | None = None

    def feed(self, block: bytes, *, final: bool = False) -> list[ServerSentEvent]:
        buf = self._rest + block if self._rest else block
        if b"\r" in buf:
            held = b"\r" if buf.endswith(b"\r") and not final else b""
            if held:
                buf = buf[:-1]  # maybe half of a CRLF: the next block says
            buf = buf.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        else:
            held = b""
        lines = buf.split(b"\n")
        rest = lines.pop()
        if final and rest:
            lines.append(rest)
            rest = b""
        self._rest = rest + held
        events = []
        for raw in lines:
            if not raw:
                if self._event or self._data or self._id or self._retry is not None:
                    events.append(
                        ServerSentEvent(
                            event=self._event, data="\n".join(self._data), id=self._id, retry=self._retry
                        )
                    )
                    self._event, self._data, self._retry = None, [], None
                continue
            line = raw.decode("utf-8")
            if line[0] == ":":
                continue
            name, _, value = line.partition(":")
            if value[:1] == " ":
                value = value[1:]
            if name == "data":
                self._data.append(value)
            elif name == "event":
                self._event = value
            elif name == "id":
                if "\0" not in value:
                    self._id = value
            elif name == "retry":
                with contextlib.suppress(ValueError):
                    self._retry = int(value)
        return events


class ChunkStream(Stream[Chunk]):
    """The SDK's ``Stream`` (its request, retries and errors), with the model's socket
    read a batch of tokens at a time (``READ_INTERVAL``), the events decoded a block at
    a time (:class:`SSEEvents`) and each made a :class:`Chunk` straight from its JSON."""

    read_interval = READ_INTERVAL
    _paced: _PacedReads | None = None

    def _iter_events(self) -> Iterator[ServerSentEvent]:
        response = self.response
        network_stream = response.extensions.get("network_stream")
        paced = self._paced = (
            _PacedReads(network_stream, self.read_interval)
            if self.read_interval
            and network_stream is not None
            and network_stream.get_extra_info("socket") is not None
            else None
        )  # None: in-process (the offline model), nothing to wait for
        decoder = SSEEvents()
        blocks = response.iter_bytes()
        try:
            while True:
                if paced is None:
                    block = next(blocks, None)
                else:
                    with paced:  # this stream's own reads, only while it is pulled
                        block = next(blocks, None)
                if block is None:
                    break
                yield from decoder.feed(block)
            yield from decoder.feed(b"", final=True)
        except timeout_exceptions() as err:  # as the SDK's Stream maps them
            raise openai.APITimeoutError(request=response.request) from err
        except request_exceptions() as err:
            raise openai.APIConnectionError(request=response.request) from err

    def __stream__(self) -> Iterator[Chunk]:
        """As the SDK's ``Stream.__stream__`` for a chat completion: ``[DONE]`` ends it,
        an event with an ``error`` raises its ``APIError``; but every event is a
        :class:`Chunk` at once, not through the client's per-event response processing
        (a protocol check and a class check a token)."""
        response = self.response
        try:
            for sse in self._iter_events():
                if sse.data.startswith("[DONE]"):
                    break
                data = json.loads(sse.data)
                if sse.event and sse.event.startswith("thread."):
                    yield Chunk({"data": data, "event": sse.event})  # as the SDK builds it
                    continue
                if isinstance(data, dict) and data.get("error"):
                    error = data["error"]
                    message = error.get("message") if isinstance(error, dict) else None
                    if not message or not isinstance(message, str):
                        message = "An error occurred during streaming"
                    raise openai.APIError(message=message, request=response.request, body=error)
                chunk = Chunk(data if isinstance(data, dict) else {})
                if self._paced is not None and any(choice.finish_reason for choice in chunk.choices):
                    self._paced.interval = 0  # the answer is whole: its end is not held
                yield chunk
        finally:
            response.close()


def stream_chat(
    client: openai.OpenAI,
    *,
    model: str,
    messages: list[ChatCompletionMessageParam],
    tools: list[dict[str, Any]],
) -> ChunkStream:
    """``client.chat.completions.create(..., stream=True)``, chunks as ``Chunk``: the
    same request, byte for byte (in create's order). Create passes its parameters
    through the SDK's ``maybe_transform``, which renames and formats the fields its
    types mark so; no field of a chat message or a function tool is marked, so for
    this body it is the identity, and walking the tools' schemas for it cost a turn
    a millisecond a call (tests/llm/test_stream.py checks both)."""
    body = {"model": model, "stream": True, "messages": messages, "tools": tools}
    return client.post(
        "/chat/completions", body=body, cast_to=ChatCompletion, stream=True, stream_cls=ChunkStream
    )


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
                made = so_far.tool_calls.setdefault(
                    index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
                )
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
                "refusal": "".join(so_far.refusal) if so_far.refusal else None,
            }
            if so_far.tool_calls:
                message["tool_calls"] = [so_far.tool_calls[i] for i in sorted(so_far.tool_calls)]
            choices.append(
                {"index": index, "message": message, "logprobs": None, "finish_reason": so_far.finish_reason}
            )
        completion = cast(
            ChatCompletion,
            construct_type(
                type_=ChatCompletion,
                value={
                    "id": first.get("id", ""),
                    "created": first.get("created", 0),
                    "model": first.get("model", ""),
                    "object": "chat.completion",
                    "system_fingerprint": first.get("system_fingerprint"),
                    "usage": self._usage,
                    "choices": choices,
                },
            ),
        )
        for choice in completion.choices:
            if choice.finish_reason == "length":
                raise openai.LengthFinishReasonError(completion=completion)
            if choice.finish_reason == "content_filter":
                raise openai.ContentFilterFinishReasonError(completion=completion)
        return completion
