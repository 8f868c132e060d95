"""Channels' consumer dispatch without its ``close_old_connections`` hop.

Channels' ``AsyncConsumer.dispatch`` awaits ``close_old_connections`` through
``sync_to_async`` before every handler: a hop to the one thread-sensitive executor
that also runs every socket's database work, for each of a streaming answer's frames
(a handler that touches no database) and each customer's message, queued behind all
the others (docs/benchmarks.md, parts f and g). A consumer whose every database step
is a ``database_sync_to_async`` call — which closes old connections before and after
itself, on the thread it runs on — loses nothing without it.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class DirectDispatch(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
