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

import openai
import pytest

from llm import ModelConfig, make_client
from llm.offline.served import ModelRequestHandler, ModelServer, serve_in_thread
from tests.llm.offline_chat import GUARDED_TOOLS, Chat, turn

# The slow route gives up on its own after this long, so a broken test can
# never hang the suite; a passing one releases it at teardown.
SLOW_ROUTE_CAP_SECONDS = 2.0


class RoutedServer(ModelServer):
    """Routes: /v1/... is the offline model, /failing/v1/... always answers 500,
    /slow/v1/... answers only after the client has given up."""

    def __init__(self) -> None:
        super().__init__()
        self.RequestHandlerClass = RoutedRequestHandler
        self.release = threading.Event()
        self.hits: Counter[str] = Counter()

    def hold(self, path: str) -> None:
        route = path.split("/")[1]
        self.hits[route] += 1
        if route == "slow":
            self.release.wait(SLOW_ROUTE_CAP_SECONDS)


class RoutedRequestHandler(ModelRequestHandler):
    server: RoutedServer

    def answer_early(self) -> bool:
        if self.path.split("/")[1] != "failing":
            return False
        error = {"error": {"message": "upstream exploded", "type": "server_error"}}
        # retry-after-ms keeps the SDK's retries instant instead of backing off.
        self.send(500, json.dumps(error).encode(), "application/json", {"retry-after-ms": "1"})
        return True


@pytest.fixture
def server() -> Iterator[RoutedServer]:
    model_server = RoutedServer()
    thread = serve_in_thread(model_server)
    yield model_server
    model_server.release.set()
    model_server.shutdown()
    model_server.server_close()
    thread.join(timeout=5)


def real_client(base_url: str, *, timeout: float = 5.0, retries: int = 0) -> openai.OpenAI:
    config = ModelConfig(model="gpt-4o-mini", base_url=base_url, timeout=timeout, max_retries=retries)
    return make_client(config)


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_gets_a_tool_call_over_http(server: RoutedServer, stream: bool) -> None:
    config = ModelConfig.from_env({"BANKBOT_MODEL": "gpt-4o-mini", "OPENAI_BASE_URL": f"{server.url}/v1"})
    client = make_client(config)

    calls = Chat(client, GUARDED_TOOLS).calls(turn("заблокируй карту 4242"), stream=stream)

    client.close()
    assert calls == [("block_card", {"card": "4242"})]
    assert server.hits["v1"] == 1


def test_it_streams_text_over_http_in_many_chunks(server: RoutedServer) -> None:
    client = real_client(f"{server.url}/v1")

    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=turn("hello"), tools=GUARDED_TOOLS, stream=True
    )
    chunks = list(stream)

    client.close()
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    assert len(chunks) > 10
    assert text.startswith("Hello! I can show your statement")


def test_it_raises_internal_server_error_on_a_500(server: RoutedServer) -> None:
    client = real_client(f"{server.url}/failing/v1", retries=0)

    with pytest.raises(openai.InternalServerError) as raised:
        client.chat.completions.create(model="gpt-4o-mini", messages=turn("hello"))

    client.close()
    assert raised.value.status_code == 500
    assert server.hits["failing"] == 1


def test_it_retries_as_many_times_as_configured(server: RoutedServer) -> None:
    client = real_client(f"{server.url}/failing/v1", retries=2)

    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="gpt-4o-mini", messages=turn("hello"))

    client.close()
    assert server.hits["failing"] == 3


def test_it_gives_up_after_the_configured_timeout(server: RoutedServer) -> None:
    client = real_client(f"{server.url}/slow/v1", timeout=0.3, retries=0)

    # The slow route answers after its cap if nobody gave up first, so a timeout
    # error (not a response) shows it was the client's timeout that fired.
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="gpt-4o-mini", messages=turn("hello"))

    client.close()


def test_it_answers_unknown_paths_with_not_found(server: RoutedServer) -> None:
    client = real_client(f"{server.url}/v1")

    with pytest.raises(openai.NotFoundError):
        client.models.list()

    client.close()
