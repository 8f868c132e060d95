"""The bank's systems out of reach: which errors count as an outage, what the
customer is told, and the one 503 every page answers it with.

A view lets a database error rise, or raises ``Outage`` with a sentence of its
own when it knows more (a write committed before the failure);
``OutageMiddleware`` answers both. The 403 and 404 pages, which Django renders
after the middleware has had its turn, answer with the same response. The chat
socket tells the same sentences in a notice (bankbot/consumers.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin
from django.utils.functional import Promise
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy
from django.views import defaults
from redis.exceptions import RedisError

from bankbot.htmx import HtmxHttpRequest

log = logging.getLogger(__name__)

# A database that is down, restarting or unreachable. Not every DatabaseError:
# an IntegrityError or ProgrammingError is a bug, and "try again" would not fix it.
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
# What a channel layer raises when its backend is down or hung: redis-py's
# ConnectionError and TimeoutError (RedisError), and the built-in OSError family
# (ConnectionError, TimeoutError — which asyncio.TimeoutError is since 3.11).
LAYER_ERRORS: tuple[type[Exception], ...] = (OSError, RedisError)
# "Try Again Later" (1013) in the application range: Daphne (autobahn) lets an
# application close with 1000 or 3000-4999 only.
TRY_AGAIN_LATER_CLOSE_CODE = 4013

SYSTEMS_UNREACHABLE = gettext_lazy(
    "The bank's systems are not reachable right now. Nothing was done; please try again in a minute."
)
LIVE_CHAT_DOWN = gettext_lazy(
    "Live chat is not available right now. Everything you sent so far is saved; please try again in a minute."
)
MESSAGE_NOT_SAVED = gettext_lazy(
    "The bank's systems are not reachable right now, so your message was not saved. Please "
    "send it again in a minute."
)
MESSAGE_NOT_ANSWERED = gettext_lazy(
    "Your message is saved, but the bank's systems are not reachable right now to answer it. "
    "Please try again in a minute."
)
# After the write committed, the database went away before the page could show it.
RESULT_NOT_SHOWN = gettext_lazy(
    "Your choice was received, but the bank's systems stopped responding before the result "
    "could be shown. Please try again in a minute; nothing will be done twice."
)
WORKER_BUSY = gettext_lazy(
    "The assistant is answering many customers right now. Your message is saved; press Retry in a moment."
)


class Outage(Exception):
    """An outage whose sentence the view knows better than "nothing was done".
    ``retry``: the fields Try again posts instead of the request's own."""

    def __init__(self, text: str | Promise, *, retry: dict[str, str] | None = None) -> None:
        super().__init__(str(text))
        self.text, self.retry = text, retry


View = Callable[..., HttpResponse]


def keeps_its_form(view: View) -> View:
    """Marks a view of ours whose form an outage keeps: a confirm card (htmx) stays
    as it is and shows the sentence in its error slot, so Confirm works again once
    the bank does; a plain form gets a Try again that posts the same fields. Only
    for forms whose fields hold no secret and whose repeat does nothing twice. Read
    by OutageMiddleware, as CsrfViewMiddleware reads ``csrf_exempt``."""
    view.outage_keeps_form = True  # type: ignore[attr-defined]
    return view


def outage_response(
    request: HtmxHttpRequest,
    text: str | Promise = SYSTEMS_UNREACHABLE,
    *,
    keep_form: bool = False,
    retry: dict[str, str] | None = None,
) -> HttpResponse:
    """503, without touching the database. For a GET, Try again loads the page again.
    A POST gets a Try again only from a form that ``keep_form`` (see keeps_its_form);
    any other POST (a sign-in, an admin form) gets none: its fields, a password
    among them, are never echoed."""
    text = str(text)
    public_id = _kwargs(request).get("public_id") if keep_form else None
    if keep_form and request.htmx and public_id is not None:
        response = render(
            request,
            "bankbot/chat.html#proposal-unavailable",
            {"public_id": public_id, "error": text},
            status=503,
        )
        response["HX-Reswap"] = "none"  # only the out-of-band error slot changes
        return response
    if request.method != "POST":
        return render(
            request, "503.html", {"text": text, "reload_url": _same_site(request.get_full_path())}, status=503
        )
    if not keep_form:
        return render(request, "503.html", {"text": text}, status=503)
    fields = (
        list(retry.items())
        if retry is not None
        else [
            (name, value)
            for name, values in request.POST.lists()
            for value in values
            if name != "csrfmiddlewaretoken"
        ]
    )
    return render(
        request,
        "503.html",
        {"text": text, "retry_url": _same_site(request.path), "retry_fields": sorted(fields)},
        status=503,
    )


class OutageMiddleware(MiddlewareMixin):
    """A database outage in any view (the session's and the customer's lookups
    included) or an ``Outage`` it raised: the 503 that says so, not a 500. Last in
    MIDDLEWARE, so it sees the view's exception first. MiddlewareMixin makes it
    sync and async capable: under Daphne the chain stays async."""

    def process_exception(self, request: HtmxHttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Outage):
            text, retry = exception.text, exception.retry
        elif isinstance(exception, DATABASE_ERRORS):
            text, retry = SYSTEMS_UNREACHABLE, None
        else:
            return None  # a bug stays a 500, reported as one
        log.warning("database unavailable: %s %s", request.method, request.path, exc_info=exception)
        match = getattr(request, "resolver_match", None)
        keep_form = bool(match and getattr(match.func, "outage_keeps_form", False))
        return outage_response(request, text, keep_form=keep_form, retry=retry)


# The 403 and 404 pages extend base.html, which reads the session's user: with the
# database down, rendering them would fail as a 500. They say so instead.


def page_not_found(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    try:
        return defaults.page_not_found(request, exception)
    except DATABASE_ERRORS:
        return outage_response(request)


def permission_denied(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    try:
        return defaults.permission_denied(request, exception)
    except DATABASE_ERRORS:
        return outage_response(request)


def _kwargs(request: HttpRequest) -> dict[str, Any]:
    match = getattr(request, "resolver_match", None)
    return match.kwargs if match is not None else {}


def _same_site(url: str) -> str:
    """A path of this site to link back to; anything else ("//elsewhere") goes home."""
    return url if url_has_allowed_host_and_scheme(url, allowed_hosts=None) else reverse("home")


class LayerWatchingConsumer(AsyncWebsocketConsumer):
    """A socket that hears of the channel layer failing under it.

    channels' AsyncConsumer.__call__ stores the layer's receive for the socket's
    channel in ``channel_receive``, then listens through it; a layer failure there
    would end the consumer (HTTP 500 during the handshake, a dropped socket after
    it). Here the receive is wrapped: a failure calls ``layer_failed`` and the
    socket stops listening to the group, instead of dying."""

    # types-channels types this an ASGI receive; channels keeps the channel layer's
    # receive here, whose messages are any dicts.
    @property  # type: ignore[override]
    def channel_receive(self) -> Callable[[], Awaitable[dict[str, Any]]]:
        return self._listen

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self._layer_receive = receive

    def still_listening(self) -> bool:
        return True

    async def layer_failed(self) -> None:
        """The layer failed while listening (told to the customer by the subclass)."""

    async def _listen(self) -> dict[str, Any]:
        if self.still_listening():
            try:
                return await self._layer_receive()
            except LAYER_ERRORS:
                log.warning("chat: the channel layer failed while listening", exc_info=True)
                await self.layer_failed()
        # Nothing more comes from the group: wait until the consumer stops (and cancels this).
        return await asyncio.get_running_loop().create_future()
