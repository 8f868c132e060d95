"""WebSocket routes (the HTTP ones are in urls.py)."""

from django.urls import path

from bankbot.consumers import ChatConsumer

websocket_urlpatterns = [
    # django-stubs' path() knows only views; channels routes ASGI applications with it.
    path("ws/chat/<uuid:public_id>/", ChatConsumer.as_asgi()),  # type: ignore[arg-type]
]
