"""The app's ASGI application plus ``ws/bench-echo/``: the bare echo consumer of
benchmark (c), behind the same origin check and session middleware as the chat."""

from __future__ import annotations

from bankbot.asgi import django_asgi_app

# Imported once Django is set up (above): they load models.
HTTP = django_asgi_app

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import path  # noqa: E402

from bankbot.routing import websocket_urlpatterns  # noqa: E402
from bankbot.websocket_origin import SameOriginOnly  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data)


application = ProtocolTypeRouter({
    "http": ASGIStaticFilesHandler(HTTP),
    "websocket": SameOriginOnly(AuthMiddlewareStack(URLRouter([
        path("ws/bench-echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns]))),
})
