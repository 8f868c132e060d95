"""A confirm card's state, pushed to every open view of its conversation when it
changes: confirmed (done or failed), declined, superseded by a newer proposal of the
same action, or found expired by a click. Each tab then shows what the card is now,
instead of a "Please confirm" that would only give an error (customer issue, point 2).

The card is rendered from the stored proposal (``chat.html#proposal-card``, escaped
like any card), once per language (each socket picks its own), and replaces the
card of the same id out of band. It goes to the conversation's group, which only
the owner's sockets join (bankbot/consumers.py checks ownership first), once the
change has committed. A pending card is never pushed: its forms need the page's
CSRF token. A card whose time runs out while nobody clicks is not pushed either:
each page asks for it again at its "confirm by" time (app.js), and a page rendered
after that shows it expired. A socket that connects again is sent the cards that changed
since its page was rendered (``cards_changed_since``): it may have missed their push.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation

from bankbot import outage
from bankbot.models import Conversation
from tools.models import Proposal
from tools.proposals import proposal_state

log = logging.getLogger(__name__)


def push_cards(proposals: Iterable[Proposal]) -> None:
    """Push each card that is no longer pending, after the current transaction commits."""
    changed = [p for p in proposals if proposal_state(p) != Proposal.Status.PENDING]
    if changed:
        transaction.on_commit(lambda: _push(changed))


def cards_changed_since(conversation: Conversation, since: datetime | None, language: str) -> str:
    """For a socket that connects again (a reconnect after a drop missed the pushes):
    the conversation's cards decided (or found expired) since its page was rendered,
    at most a proposal's lifetime ago, out of band in ``language``. None: a first
    connect, whose page shows the stored state already."""
    if since is None:
        return ""
    since = max(since, timezone.now() - timedelta(seconds=settings.BANKBOT_PROPOSAL_TTL_SECONDS))
    changed = (Q(decided_at__gte=since) | Q(status=Proposal.Status.EXPIRED, expires_at__gte=since)) & ~Q(
        status=Proposal.Status.PENDING
    )
    with translation.override(language):
        return "".join(
            render_to_string("bankbot/chat.html#proposal-card", {"proposal": proposal, "oob": True})
            for proposal in conversation.proposals.filter(changed).select_related("conversation", "customer")
        )


def page_rendered_at(scope: Mapping[str, Any]) -> datetime | None:
    """When the socket's page was rendered, from its URL (``?rendered=`` seconds since
    the epoch, chat.html), or None."""
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    try:
        return datetime.fromtimestamp(int((query.get("rendered") or [""])[0]), tz=UTC)
    except (ValueError, OverflowError, OSError):
        return None


def render_pushed_card(proposal: Proposal) -> dict[str, str]:
    """The card, out of band, in each of the site's languages."""
    html: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            html[code] = render_to_string(
                "bankbot/chat.html#proposal-card", {"proposal": proposal, "oob": True}
            )
    return html


def _push(proposals: list[Proposal]) -> None:
    from bankbot.fragments import group_name  # fragments imports the agent, which pushes

    layer = get_channel_layer()
    if layer is None:  # no layer configured: the card shows its state on reload
        return
    for proposal in proposals:
        try:
            html = render_pushed_card(proposal)
        except outage.DATABASE_ERRORS:  # the change is made: the card shows it on reload
            log.warning("card push: the database failed rendering the card", exc_info=True)
            continue
        try:
            async_to_sync(layer.group_send)(
                group_name(proposal.conversation),
                {"type": "chat.fragment", "html": html[settings.LANGUAGE_CODE], "html_by_language": html},
            )
        except outage.LAYER_ERRORS:
            log.warning(
                "card push: the channel layer is down; the card shows its state on reload", exc_info=True
            )
