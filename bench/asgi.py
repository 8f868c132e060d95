"""The app's ASGI application plus what benchmark (c) compares the chat with, bench-only:

- ``ws/bench-echo/``: a bare echo consumer, behind the same origin check and session
  middleware as the chat;
- the **naive turn**: in these workers, a conversation titled ``NAIVE_TITLE`` (made
  only by the benchmark's setup) plays its turns through the Injection Lab's
  ``NaiveHarness`` and without the output check (``run_turn``'s ``turn_config``:
  ``bench.naive.NAIVE_TURN``), on the same chat consumer, model, streaming and
  channel layer as a guarded turn — what a naive app would run instead. The app's
  own ASGI application (config/asgi.py) never does this.
"""

from __future__ import annotations

from typing import Any

from config.asgi import django_asgi_app

# Imported once Django is set up (above): they load models.
HTTP = django_asgi_app

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import path  # noqa: E402

from bankbot import agent  # noqa: E402
from bench import NAIVE_TITLE  # noqa: E402
from bench.naive import NAIVE_TURN  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket_origin import SameOriginOnly  # noqa: E402

_guarded_run_turn = agent.run_turn


def run_turn(**kwargs: Any) -> Any:
    """``agent.run_turn`` in the bench workers: the naive turn for the benchmark's
    naive conversations, the app's own turn for every other."""
    if kwargs["conversation"].title == NAIVE_TITLE:
        kwargs.update(turn_config=NAIVE_TURN)
    return _guarded_run_turn(**kwargs)


agent.run_turn = run_turn  # the chat looks it up as agent.run_turn at each turn


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data)


application = ProtocolTypeRouter(
    {
        "http": ASGIStaticFilesHandler(HTTP),
        "websocket": SameOriginOnly(
            AuthMiddlewareStack(
                URLRouter([path("ws/bench-echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns])
            )
        ),
    }
)
