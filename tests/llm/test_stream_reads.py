"""llm/stream.py reads a streamed answer in batches: the model's socket at most
every READ_INTERVAL (each read takes every event that came meanwhile), the events
decoded a block at a time. Nothing may be lost, reordered or decoded differently from
the SDK's own decoder, the first token is not held, and a read that leaves more waiting
is followed at once."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai._streaming import SSEDecoder

from llm import stream as stream_module
from llm.offline.served import ModelRequestHandler, ModelServer
from llm.stream import ChunkStream, SSEEvents, _PacedReads, stream_chat

# --- the decoder: the SDK's events, however the bytes are cut ---------------------

_LINE = st.one_of(
    st.builds(lambda v: f"data: {v}", st.text(max_size=12)),
    st.builds(lambda v: f"data:{v}", st.text(max_size=6)),
    st.builds(lambda v: f"event: {v}", st.sampled_from(["", "error", "thread.run", "x"])),
    st.builds(lambda v: f"id: {v}", st.sampled_from(["", "7", "a\0b"])),
    st.builds(lambda v: f"retry: {v}", st.sampled_from(["", "10", "x", "-3"])),
    st.builds(lambda v: f": {v}", st.text(max_size=6)),
    st.just("data"),
    st.just(""),
    st.text(max_size=8),
)
_TEXT = st.lists(st.tuples(_LINE, st.sampled_from(["\n", "\r", "\r\n"])), max_size=30).map(
    lambda lines: "".join(line.replace("\r", "").replace("\n", "") + end for line, end in lines)
)


def _seen(events: list) -> list[tuple]:
    return [(e.event, e.data, e.id, e.retry) for e in events]


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_events_decoded_a_block_at_a_time_are_the_sdks(text: str, cuts: list[int]) -> None:
    blocks = _cut(text.encode(), cuts)
    theirs = _seen(list(SSEDecoder().iter_bytes(iter(blocks))))
    decoder = SSEEvents()
    ours = [event for block in blocks for event in decoder.feed(block)]
    ours += decoder.feed(b"", final=True)
    assert _seen(ours) == theirs


def test_a_crlf_cut_between_its_two_bytes_is_one_line_end() -> None:
    decoder = SSEEvents()
    assert decoder.feed(b"data: a\r") == []
    assert _seen(decoder.feed(b"\n\r\ndata: b\r\n\r\n")) == [(None, "a", None, None), (None, "b", None, None)]


# --- the reads: batched, never holding the first, never holding what is waiting ----


class FakeNetworkStream:
    """A network stream whose reads return what the test queued."""

    def __init__(self, reads: list[bytes], *, tls_waiting: list[bool] | None = None) -> None:
        self.reads, self.tls_waiting = reads, tls_waiting
        self.sock = type("TLSSocket", (), {"pending": lambda _: 0})() if tls_waiting else object()

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.reads.pop(0)[:max_bytes]

    def get_extra_info(self, info: str) -> object:
        if info == "socket":
            return self.sock
        if info == "is_readable":
            return self.tls_waiting.pop(0) if self.tls_waiting else False
        return None


class Clock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.now += seconds


def test_the_first_read_is_not_held_and_the_next_waits_for_the_interval() -> None:
    clock = Clock()
    network = FakeNetworkStream([b"one", b"two", b"three"])
    with _PacedReads(network, 0.1, clock=clock, sleep=clock.sleep) as paced:
        assert network.read(64) == b"one"  # the stream's read is the paced one meanwhile
        clock.now += 0.03  # the turn handles the first token
        assert paced.read(64) == b"two"
        clock.now += 0.25  # a long pause: the next read is due already
        assert paced.read(64) == b"three"
    assert clock.slept == [0.07]
    assert "read" not in vars(network)  # the stream's own read again


def test_a_read_that_filled_its_buffer_is_followed_at_once() -> None:
    clock = Clock()
    network = FakeNetworkStream([b"x" * 8, b"rest", b"next"])
    paced = _PacedReads(network, 0.1, clock=clock, sleep=clock.sleep)
    assert paced.read(8) == b"x" * 8  # full: more is waiting
    assert paced.read(8) == b"rest"  # not held
    assert paced.read(8) == b"next"  # held: nothing was known to wait
    assert clock.slept == [0.1]


def test_tls_records_waiting_are_read_at_once() -> None:
    clock = Clock()
    network = FakeNetworkStream([b"a", b"b", b"c"], tls_waiting=[True, False])
    paced = _PacedReads(network, 0.1, clock=clock, sleep=clock.sleep)
    assert [paced.read(64) for _ in range(3)] == [b"a", b"b", b"c"]
    assert clock.slept == [0.1]  # "b" was waiting; before "c" nothing was


# --- over a real socket: every event, in order, in fewer reads than events -------

EVENTS = 40
GAP = 0.002  # seconds between two events after the first


def _event(content: str, finish: str | None = None) -> bytes:
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n".encode()


class TrickleHandler(ModelRequestHandler):
    """The first event, a pause, then the others a token's time apart, one HTTP chunk
    each, flushed as they go."""

    def _serve(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for index in range(EVENTS):
            event = _event(f"w{index} ")
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
            time.sleep(0.05 if index == 0 else GAP)
        event = _event("", finish="stop")
        self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
        self.wfile.flush()
        time.sleep(0.06)  # longer than the test's read interval
        done = b"data: [DONE]\n\n"
        self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(done), done))
        self.wfile.flush()


@pytest.fixture
def trickle() -> Iterator[ModelServer]:
    server = ModelServer()
    server.RequestHandlerClass = TrickleHandler
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_trickled_answer_arrives_whole_in_a_few_reads(trickle: ModelServer, monkeypatch) -> None:
    reads: list[int] = []
    after_the_end: list[float] = []  # the interval of each read after the finish reason
    own = stream_module._PacedReads.read

    def counted(self: _PacedReads, max_bytes: int, timeout: float | None = None) -> bytes:
        if any(b"finish_reason" in b and b'"stop"' in b for b in seen):
            after_the_end.append(self.interval)
        data = own(self, max_bytes, timeout)
        seen.append(data)
        reads.append(data.count(b"data:"))
        return data

    seen: list[bytes] = []

    monkeypatch.setattr(stream_module._PacedReads, "read", counted)
    monkeypatch.setattr(ChunkStream, "read_interval", 0.04)
    client = openai.OpenAI(api_key="x", base_url=f"{trickle.url}/v1", max_retries=0)
    try:
        stream = stream_chat(client, model="m", messages=[{"role": "user", "content": "hi"}], tools=[])
        assert isinstance(stream, ChunkStream)
        chunks = list(stream)
    finally:
        client.close()
    assert [c.choices[0].delta.content for c in chunks] == [*(f"w{index} " for index in range(EVENTS)), ""]
    assert chunks[-1].choices[0].finish_reason == "stop"
    # Every event and [DONE] (the first may have come with the response's head).
    assert sum(reads) in (EVENTS + 1, EVENTS + 2)
    assert set(after_the_end) <= {0}  # once the answer is whole, its end is not held
    # 80 ms of trickle read every 40 ms at most: a few reads, not one an event.
    assert len(reads) <= EVENTS // 4
