"""A staff member's message, or the hand-over's news, pushed to every open tab of the
customer's conversation (its group, which only the owner's sockets join), in each tab's
language — once the write is committed, so no tab shows what a rollback took back.
Over Redis the group spans workers: the tab gets it whichever worker holds its socket.
Without a channel layer, or with it down, the page shows it on reload."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import translation

from bankbot import outage
from bankbot.fragments import group_name, render_person
from bankbot.models import Message

log = logging.getLogger(__name__)


def push_person(message: Message) -> None:
    """Push ``message`` (role staff, or a hand-over note) after the transaction commits."""
    transaction.on_commit(lambda: _push(message))


def render_in_each_language(message: Message) -> dict[str, str]:
    html: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            html[code] = render_person(message, message.conversation)
    return html


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
