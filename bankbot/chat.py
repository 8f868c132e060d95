"""Conversations and messages: selectors scoped to the customer, and the services that write them."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Customer
from accounts.text import without_nul
from bankbot.models import Conversation, Message
from errors import InvalidInput, NotFound

MAX_MESSAGE_CHARS = 2000
# Counted from stored messages, so the limit holds across workers and reconnects.
RATE_LIMIT_MESSAGES = 10
RATE_LIMIT_WINDOW = timedelta(minutes=1)
MAX_CLIENT_ID_CHARS = 64


def conversations_for(*, customer: Customer) -> QuerySet[Conversation]:
    return Conversation.objects.filter(customer=customer).order_by("-created_at", "-id")


def conversation_get(*, customer: Customer, public_id: Any) -> Conversation:
    try:
        return Conversation.objects.get(customer=customer, public_id=uuid.UUID(str(public_id)))
    except (ValueError, Conversation.DoesNotExist):
        raise NotFound("This conversation was not found.", code="conversation_not_found") from None


def conversation_of_user(*, user: Any, public_id: Any) -> Conversation | None:
    """The signed-in user's own conversation (its customer and user loaded), or None:
    not a customer, or not theirs, answered alike."""
    customer = Customer.objects.select_related("user").filter(user=user).first()
    if customer is None:
        return None
    try:
        conversation = conversation_get(customer=customer, public_id=public_id)
    except NotFound:
        return None
    conversation.customer = customer  # read already, with its user
    return conversation


def conversation_start(*, customer: Customer, title: str = "") -> Conversation:
    return Conversation.objects.create(customer=customer, title=title[:120])


def conversation_fresh(*, customer: Customer) -> Conversation:
    """A conversation to start talking in: the customer's newest one while nothing
    has been said in it yet, else a new one, so that "New conversation" clicked
    twice (or a statement button pressed before any chat) leaves no empty entries."""
    newest = conversations_for(customer=customer).first()
    if newest is not None and not newest.messages.exists():
        return newest
    return conversation_start(customer=customer)


def message_customer_add(
    *,
    conversation: Conversation,
    text: str,
    client_message_id: str | None = None,
    ui_action: dict[str, str] | None = None,
) -> tuple[Message, bool]:
    """Store what the customer sent, before anything else happens (G11).

    Returns (message, created). The same client message id twice — a resent
    WebSocket frame, a double submit — stores one message.
    """
    text = without_nul((text or "").strip())
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(
            _("Your message is %(count)d characters long; the limit is %(limit)d. Please "
              "shorten it.") % {"count": len(text), "limit": MAX_MESSAGE_CHARS},
            code="message_too_long")
    if not text and not ui_action:
        raise InvalidInput(_("The message is empty."), code="message_empty")
    _check_client_message_id(client_message_id)
    if client_message_id:
        existing = conversation.messages.filter(client_message_id=client_message_id).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            message = Message.objects.create(
                conversation=conversation, role=Message.Role.CUSTOMER, text=text,
                ui_action=ui_action, client_message_id=client_message_id or None,
            )
    except IntegrityError:  # the same frame raced in on another connection
        return conversation.messages.get(client_message_id=client_message_id), False
    if not conversation.title and text:
        Conversation.objects.filter(pk=conversation.pk).update(title=text[:60])
    return message, True


def _check_client_message_id(client_message_id: Any) -> None:
    if client_message_id is None:
        return
    if (not isinstance(client_message_id, str) or len(client_message_id) > MAX_CLIENT_ID_CHARS
            or not client_message_id.isprintable()):
        raise InvalidInput("The message id is not valid.", code="invalid_message_id")


def customer_rate_limited(*, customer: Customer) -> bool:
    since = timezone.now() - RATE_LIMIT_WINDOW
    recent = Message.objects.filter(
        conversation__customer=customer, role=Message.Role.CUSTOMER, created_at__gte=since
    ).count()
    return recent >= RATE_LIMIT_MESSAGES


def message_accept(*, conversation: Conversation, text: str, client_message_id: str | None,
                   ui_action: dict[str, str] | None) -> Message | None:
    """Store the customer's message, or raise InvalidInput (rate limit, too long,
    empty). None: this client message id was stored before (a resent frame).

    Counting and storing are one transaction holding the customer's row, so
    messages arriving at once — on several sockets, tabs or workers — are
    counted one after another and never store more than the limit. (On SQLite
    the IMMEDIATE transaction already takes the database's write lock.)"""
    _check_client_message_id(client_message_id)
    with transaction.atomic():
        Customer.objects.select_for_update(no_key=True).filter(pk=conversation.customer_id).first()
        if client_message_id and conversation.messages.filter(
                client_message_id=client_message_id).exists():
            return None  # a resent frame: stored before, and not counted again
        if customer_rate_limited(customer=conversation.customer):
            raise InvalidInput(
                _("You have sent %(count)d messages in the last minute. Please wait a moment "
                  "and try again.") % {"count": RATE_LIMIT_MESSAGES}, code="rate_limited")
        message, created = message_customer_add(
            conversation=conversation, text=text, client_message_id=client_message_id,
            ui_action=ui_action,
        )
    return message if created else None


def message_to_retry(*, conversation: Conversation) -> Message | None:
    """The customer's latest message, if its turn ended without an answer: the
    model failed (a stored, retryable error), or the turn broke off (a crash, a
    lost worker) after the message or a tool call was stored."""
    latest = conversation.messages.exclude(
        role__in=[Message.Role.TOOL, Message.Role.SYSTEM]).order_by("-id").first()
    if latest is None:
        return None
    if latest.role == Message.Role.CUSTOMER:
        return latest
    payload = latest.payload or {}
    if not (payload.get("retryable") or payload.get("tool_calls")):
        return None
    return conversation.messages.filter(role=Message.Role.CUSTOMER, id__lt=latest.id).order_by(
        "-id").first()


def message_add(*, conversation: Conversation, role: str, text: str = "",
                payload: Any = None, flagged: str = "") -> Message:
    return Message.objects.create(conversation=conversation, role=role, text=without_nul(text),
                                  payload=without_nul(payload), flagged=flagged[:300])


def confirmation_note(*, proposal: Any, response: dict[str, Any]) -> Message:
    """The result of a click joins the conversation, for the model's next turn."""
    text = f"The customer confirmed “{proposal.summary}”. Result: " + json.dumps(
        response, ensure_ascii=False)
    return message_add(conversation=proposal.conversation, role=Message.Role.SYSTEM, text=text,
                       payload={"proposal": proposal.reference, "response": response})


def decline_note(*, proposal: Any) -> Message:
    return message_add(conversation=proposal.conversation, role=Message.Role.SYSTEM,
                       text=f"The customer declined “{proposal.summary}”.",
                       payload={"proposal": proposal.reference, "declined": True})
