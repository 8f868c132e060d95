"""A staff member's message, or the hand-over's news, pushed to every open tab of the
customer's conversation (its group, which only the owner's sockets join), in each tab's
language — once the write is committed, so no tab shows what a rollback took back.
Over Redis the group spans workers: the tab gets it whichever worker holds its socket.
A socket that was away (a drop, a reconnect) is sent what it missed when it connects
again (``people_since``, bankbot/catch_up.py). Without a channel layer, or with it down,
the page shows it on reload."""

from __future__ import annotations

import logging
from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import translation

from bankbot import outage
from bankbot.chat import PERSON_NOTE
from bankbot.fragments import group_name, render_person
from bankbot.models import Conversation, Message

log = logging.getLogger(__name__)

MAX_CAUGHT_UP = 50  # a socket back after a drop is sent at most this many of them


def push_person(message: Message) -> None:
    """Push ``message`` (role staff, or a hand-over note) after the transaction commits."""
    transaction.on_commit(lambda: _push(message))


def render_in_each_language(message: Message) -> dict[str, str]:
    html: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            html[code] = render_person(message, message.conversation)
    return html


def people_since(conversation: Conversation, since: datetime | None, language: str) -> str:
    """For a socket that connects (a reconnect after a drop missed the pushes): the
    staff messages and hand-over notes stored since its page was rendered, out of band
    in ``language``. The page drops one it shows already (``data-person`` ids, app.js)."""
    if since is None:
        return ""
    people = (
        conversation.messages.filter(created_at__gte=since)
        .filter(Q(role=Message.Role.STAFF) | Q(role=Message.Role.SYSTEM, payload__kind=PERSON_NOTE))
        .select_related("author", "conversation")
        .order_by("id")[:MAX_CAUGHT_UP]
    )
    with translation.override(language):
        return "".join(render_person(message, conversation) for message in people)


def _push(message: Message) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        html = render_in_each_language(message)
        async_to_sync(layer.group_send)(
            group_name(message.conversation),
            {"type": "chat.fragment", "html": html[settings.LANGUAGE_CODE], "html_by_language": html},
        )
    except (*outage.LAYER_ERRORS, *outage.DATABASE_ERRORS):
        log.warning("person push: not sent; the page shows it on reload", exc_info=True)
