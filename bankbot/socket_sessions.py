"""A chat socket serves the session it opened with, and only while that session
lasts (``SessionBoundConsumer``). Each frame is checked against the session as stored
now (``session_lasts``); and when a session ends — the customer signs out, their
password changes, their login is deactivated — their open sockets hear it at once
through a group of the user's (``user_group``) and close, instead of waiting for a
frame to find out.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Callable
from importlib import import_module
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
    user_logged_out,
)
from django.db import transaction
from django.db.models.signals import post_save
from django.utils import translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext_lazy

from bankbot import outage

log = logging.getLogger(__name__)

SESSION_ENDED = gettext_lazy("Your session has ended. Please sign in again.")
# In the application range (Daphne lets an application close with 1000 or 3000-4999):
# not one the htmx ws extension reconnects after, nor app.js's "try again later".
SESSION_ENDED_CLOSE_CODE = 4401


def user_group(user_pk: Any) -> str:
    """The channel-layer group of every chat socket a user has open."""
    return f"chat-user.{user_pk}"


def session_digest(session_key: str | None) -> str:
    """A session named in a group message without its key (a bearer credential)."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()


def session_lasts(*, session_key: str | None, user_pk: Any) -> bool:
    """Whether the session still signs this user in, read from the session store as
    Django's own ``get_user`` reads it (but changing nothing): it exists and has not
    expired, names the user through a configured backend, the user may sign in (is
    active), and it carries the hash of the user's current password."""
    if not session_key:
        return False
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
    backend_path = data.get(BACKEND_SESSION_KEY)
    if str(data.get(SESSION_KEY)) != str(user_pk) or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    user = load_backend(backend_path).get_user(user_pk)
    if user is None:
        return False
    stored = data.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(stored, current) for current in hashes)


T = TypeVar("T")


class SessionUnreadable(Exception):
    """The database failed while a frame's session was read (``session_then``)."""


def session_then(*, session_key: str | None, user_pk: Any, then: Callable[[], T]) -> tuple[bool, T | None]:
    """On the database thread, in one trip from the socket (a burst of customers'
    messages queues there one after another: docs/benchmarks.md, part g): the session
    check a frame gets, then ``then`` only if the session lasts — (False, None) if it
    does not, else (True, what ``then`` answers). Raises ``SessionUnreadable`` if the
    session could not be read, and whatever ``then`` raises."""
    try:
        if not session_lasts(session_key=session_key, user_pk=user_pk):
            return False, None
    except outage.DATABASE_ERRORS as error:
        raise SessionUnreadable() from error
    return True, then()


def sessions_check(user_pk: Any, *, ended: str | None = None) -> None:
    """Tell the user's open sockets to check their session now; ``ended``: a session
    known to be ending (its key, digested), whose sockets close without checking."""
    layer = get_channel_layer()
    if layer is None:  # no layer configured: every frame is checked all the same
        return
    try:
        async_to_sync(layer.group_send)(
            user_group(user_pk), {"type": "session.check", "ended": session_digest(ended) if ended else ""}
        )
    except outage.LAYER_ERRORS:
        log.warning(
            "chat: could not tell a user's sockets to check their session; their next frame is checked",
            exc_info=True,
        )


class SessionBoundConsumer(AsyncWebsocketConsumer):
    """A socket that serves the session it opened with only while it lasts: it joins
    the user's group, checks each frame (``session_goes_on``) and hears from the group
    when a session ends (``session_check``). Saying so and closing are the subclass's
    (``session_ended``), as is the notice a frame turned away gets (``notice``)."""

    session_key: str | None = None  # the session the socket was opened with
    session_user_pk: Any = None
    session_group = ""  # once joined
    language = ""  # the page's, once connected

    def remember_session(self, user_pk: Any) -> None:
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        self.session_user_pk = user_pk

    async def join_session_group(self) -> None:
        """The group the user's sockets hear a session's end in (may raise a layer error)."""
        await self.channel_layer.group_add(user_group(self.session_user_pk), self.channel_name)
        self.session_group = user_group(self.session_user_pk)

    async def session_goes_on(self, *, refused: str = "") -> bool:
        """Whether the session still signs the customer in, read now; a frame is served
        only if it does. With the database away, the frame is turned away with a notice."""
        try:
            lasts = await database_sync_to_async(session_lasts)(
                session_key=self.session_key, user_pk=self.session_user_pk
            )
        except outage.DATABASE_ERRORS:
            log.warning("chat: the database failed checking a socket's session", exc_info=True)
            await self.notice(str(outage.SYSTEMS_UNREACHABLE), refused=refused)
            return False
        if not lasts:
            await self.session_ended()
        return lasts

    async def session_check(self, event: dict[str, Any]) -> None:
        """``sessions_check`` from the user's group: ``ended`` names the session signing
        out (another one's sockets stay); without it, each socket reads its own."""
        ended = event.get("ended") or ""
        if ended:
            if ended == session_digest(self.session_key):
                await self.session_ended()
            return
        with contextlib.suppress(*outage.DATABASE_ERRORS):  # the next frame checks again
            if not await database_sync_to_async(session_lasts)(
                session_key=self.session_key, user_pk=self.session_user_pk
            ):
                await self.session_ended()

    async def session_ended(self) -> None:
        """Said in the page's language, then closed with a code nothing reconnects after."""
        with translation.override(self.language or settings.LANGUAGE_CODE):
            await self.notice(str(SESSION_ENDED))
        await self.close(code=SESSION_ENDED_CLOSE_CODE)

    async def notice(self, text: str, *, refused: str = "") -> None:
        raise NotImplementedError


def _on_logged_out(sender: Any, *, request: Any, user: Any, **kwargs: Any) -> None:
    # Sent before the session is flushed: the sockets would still find it, so it is named.
    if user is not None and request is not None:
        sessions_check(user.pk, ended=request.session.session_key)


def _on_user_saved(
    sender: Any, *, instance: Any, created: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    """A password changed or a login deactivated ends sessions: checked once the
    change is committed (before, another connection would still read the old row).
    A new user has no sockets; signing in only stamps ``last_login``, which ends nothing."""
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    transaction.on_commit(lambda: sessions_check(instance.pk))


def connect() -> None:
    user_logged_out.connect(_on_logged_out, dispatch_uid="bankbot.socket_sessions.logged_out")
    post_save.connect(
        _on_user_saved, sender=get_user_model(), dispatch_uid="bankbot.socket_sessions.user_saved"
    )
