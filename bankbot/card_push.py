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
after that shows it expired.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from bankbot import outage
from tools.models import Proposal
from tools.proposals import proposal_state

log = logging.getLogger(__name__)


def push_cards(proposals: Iterable[Proposal]) -> None:
    """Push each card that is no longer pending, after the current transaction commits."""
    changed = [p for p in proposals if proposal_state(p) != Proposal.Status.PENDING]
    if changed:
        transaction.on_commit(lambda: _push(changed))


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
        html = render_pushed_card(proposal)
        try:
            async_to_sync(layer.group_send)(
                group_name(proposal.conversation),
                {"type": "chat.fragment", "html": html[settings.LANGUAGE_CODE], "html_by_language": html},
            )
        except outage.LAYER_ERRORS:
            log.warning(
                "card push: the channel layer is down; the card shows its state on reload", exc_info=True
            )
