"""When staff move a dispute, the customer hears of it wherever they are.

``disputes.signals.dispute_moved`` (sent once the move has committed) → one bank
message in the conversation the dispute came from, kept in its history; that
conversation's entry in the sidebar is marked until it is opened again. It is pushed
through the channel layer to the customer's own group (every socket of theirs, each
joined once its session and conversation were checked), each tab in its own language:
a tab showing that conversation gets the news and the result card; a tab showing
another conversation gets the news with a link to it, and the sidebar's mark. The model reads the
move as a bank note without the staff text; ``get_disputes`` gives it the note,
labelled as staff-written.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from bankbot import outage
from bankbot.chat import DISPUTE_NEWS, DisputeNewsPayload, message_add
from bankbot.models import Conversation, Message
from bankbot.news import news_of
from bankbot.socket_sessions import user_group
from disputes.models import Dispute, DisputeReview
from disputes.signals import dispute_moved
from tools.models import Confirmation, Proposal

log = logging.getLogger(__name__)


def proposal_of(dispute: Dispute) -> Proposal | None:
    """The proposal whose confirmation opened the dispute (its key is the
    confirmation's), or None for one opened some other way."""
    confirmation = (
        Confirmation.objects.select_related("proposal__conversation")
        .filter(idempotency_key=dispute.idempotency_key, proposal__customer=dispute.customer_id)
        .first()
    )
    return confirmation.proposal if confirmation else None


def dispute_news_post(*, dispute: Dispute, review: DisputeReview) -> Message | None:
    """Store the news in the dispute's conversation, mark it there for the sidebar,
    and push it to every open tab of the customer's."""
    proposal = proposal_of(dispute)
    if proposal is None:
        return None
    conversation = proposal.conversation
    text = (
        f"Bank update, not from the customer: dispute {dispute.reference} of transaction "
        f"{dispute.transaction.reference} is now {dispute.status}. Call get_disputes for "
        f"the bank's note to the customer."
    )
    message = message_add(
        conversation=conversation,
        role=Message.Role.SYSTEM,
        text=text,
        payload=DisputeNewsPayload(
            kind=DISPUTE_NEWS,
            dispute=dispute.reference or "",
            status=str(dispute.status),
            note=review.customer_note,
        ),
    )
    Conversation.objects.filter(pk=conversation.pk).update(news_unseen=True)
    _push(conversation, message, proposal)
    return message


def _push(conversation: Conversation, message: Message, proposal: Proposal) -> None:
    """To every open tab of the customer's, rendered once per language (each socket
    picks its own) and once per place: the tabs on the news's conversation get the
    news and the dispute's result card again, now with the new status; the others the
    news with a link there. The news is stored already: a layer that is down only
    means it shows on reload."""
    here, elsewhere = {}, {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            item = news_of(message)  # its sentence in this language
            here[code] = render_to_string("bankbot/stream.html#news", {"item": item, "proposal": proposal})
            elsewhere[code] = render_to_string(
                "bankbot/stream.html#news-elsewhere", {"item": item, "origin": conversation}
            )
    layer = get_channel_layer()
    if layer is None:  # no layer configured: the news shows on reload
        return
    try:
        async_to_sync(layer.group_send)(
            user_group(conversation.customer.user_id),
            {
                "type": "chat.fragment",
                "html": here[settings.LANGUAGE_CODE],
                "html_by_language": here,
                "conversation": conversation.public_id.hex,
                "elsewhere_by_language": elsewhere,
            },
        )
    except outage.LAYER_ERRORS:
        log.warning("dispute news: the channel layer is down; it shows on reload", exc_info=True)


def _on_dispute_moved(sender: Any, *, dispute: Dispute, review: DisputeReview, **kwargs: Any) -> None:
    dispute_news_post(dispute=dispute, review=review)


def connect() -> None:
    dispute_moved.connect(_on_dispute_moved, dispatch_uid="bankbot.dispute_news")
