"""A real HTTP round trip: the SDK's own transport against a loopback server.

The server wraps OfflineModel, so a "real model" config pointed at it exercises
the production path (sockets, chunked SSE, status codes, timeouts, retries)
without any model or outside network.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx2
import openai
import pytest

from bankbot.llm import ModelConfig, OfflineModel, make_client
from tests.llm.offline_chat import GUARDED_TOOLS, Chat, turn

# The slow route gives up on its own after this long, so a broken test can
# never hang the suite; a passing one releases it at teardown.
SLOW_ROUTE_CAP_SECONDS = 2.0


class ModelServer(ThreadingHTTPServer):
    """Routes: /v1/... is the offline model, /failing/v1/... always answers 500,
    /slow/v1/... answers only after the client has given up."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ModelRequestHandler)
        self.model = OfflineModel()
        self.release = threading.Event()
        self.hits: Counter[str] = Counter()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


class ModelRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming, like a real API
    server: ModelServer

    def do_GET(self) -> None:
        self._serve(b"")

    def do_POST(self) -> None:
        self._serve(self.rfile.read(int(self.headers.get("content-length", 0))))

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep test output quiet

    def _serve(self, body: bytes) -> None:
        route = self.path.split("/")[1]
        self.server.hits[route] += 1
        if route == "failing":
            error = {"error": {"message": "upstream exploded", "type": "server_error"}}
            # retry-after-ms keeps the SDK's retries instant instead of backing off.
            self._send(500, json.dumps(error).encode(), "application/json", {"retry-after-ms": "1"})
            return
        if route == "slow":
            self.server.release.wait(SLOW_ROUTE_CAP_SECONDS)
        request = httpx2.Request(
            self.command, self.server.url + self.path, headers=dict(self.headers), content=body
        )
        response = self.server.model(request)
        content_type = response.headers.get("content-type", "application/json")
        if content_type.startswith("text/event-stream"):
            self._stream(response.status_code, response.content)
        else:
            self._send(response.status_code, response.content, content_type)

    def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and left; nothing to tell it

    def _stream(self, status: int, body: bytes) -> None:
        """One HTTP chunk per server-sent event, flushed as it would be live."""
        try:
            self.send_response(status)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for event in body.split(b"\n\n"):
                if event:
                    piece = event + b"\n\n"
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


@pytest.fixture
def server() -> Iterator[ModelServer]:
    model_server = ModelServer()
    # A short poll interval makes shutdown() return promptly at teardown.
    thread = threading.Thread(target=model_server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield model_server
    model_server.release.set()
    model_server.shutdown()
    model_server.server_close()
    thread.join(timeout=5)


def real_client(base_url: str, *, timeout: float = 5.0, retries: int = 0) -> openai.OpenAI:
    config = ModelConfig(model="gpt-4o-mini", base_url=base_url, timeout=timeout, max_retries=retries)
    return make_client(config)


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_gets_a_tool_call_over_http(server: ModelServer, stream: bool) -> None:
    config = ModelConfig.from_env({"BANKBOT_MODEL": "gpt-4o-mini", "OPENAI_BASE_URL": f"{server.url}/v1"})
    client = make_client(config)

    calls = Chat(client, GUARDED_TOOLS).calls(turn("заблокируй карту 4242"), stream=stream)

    client.close()
    assert calls == [("block_card", {"card": "4242"})]
    assert server.hits["v1"] == 1


def test_it_streams_text_over_http_in_many_chunks(server: ModelServer) -> None:
    client = real_client(f"{server.url}/v1")

    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=turn("hello"), tools=GUARDED_TOOLS, stream=True
    )
    chunks = list(stream)

    client.close()
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    assert len(chunks) > 10
    assert text.startswith("Hello! I can show your statement")


def test_it_raises_internal_server_error_on_a_500(server: ModelServer) -> None:
    client = real_client(f"{server.url}/failing/v1", retries=0)

    with pytest.raises(openai.InternalServerError) as raised:
        client.chat.completions.create(model="gpt-4o-mini", messages=turn("hello"))

    client.close()
    assert raised.value.status_code == 500
    assert server.hits["failing"] == 1


def test_it_retries_as_many_times_as_configured(server: ModelServer) -> None:
    client = real_client(f"{server.url}/failing/v1", retries=2)

    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="gpt-4o-mini", messages=turn("hello"))

    client.close()
    assert server.hits["failing"] == 3


def test_it_gives_up_after_the_configured_timeout(server: ModelServer) -> None:
    client = real_client(f"{server.url}/slow/v1", timeout=0.3, retries=0)

    # The slow route answers after its cap if nobody gave up first, so a timeout
    # error (not a response) shows it was the client's timeout that fired.
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="gpt-4o-mini", messages=turn("hello"))

    client.close()


def test_it_answers_unknown_paths_with_not_found(server: ModelServer) -> None:
    client = real_client(f"{server.url}/v1")

    with pytest.raises(openai.NotFoundError):
        client.models.list()

    client.close()
