"""Conversations and messages: selectors scoped to the customer, the services that
write them, and what a message carries besides its text (``Message.payload``): one
typed shape per kind of message, written and read only through the types below."""

from __future__ import annotations

import contextlib
import json
import uuid
from datetime import timedelta
from typing import Any, TypedDict

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Customer
from accounts.text import without_nul
from bankbot.models import Conversation, Message
from errors import InvalidInput, NotFound
from tools.context import SessionUser
from tools.json_types import JSONObject
from tools.models import Proposal

MAX_MESSAGE_CHARS = 2000
# Counted from stored messages, so the limit holds across workers and reconnects.
RATE_LIMIT_MESSAGES = 10
RATE_LIMIT_WINDOW = timedelta(minutes=1)
MAX_CLIENT_ID_CHARS = 64


# --- Message.payload, one shape per kind of message -----------------------------


class ToolCallsPayload(TypedDict):
    """An assistant message that called tools: the calls, as the model made them."""

    tool_calls: list[dict[str, Any]]


class ToolResultPayload(TypedDict):
    """A tool message: the call it answers, the harness's answer as the model read it
    (``content``, JSON), its status (an OutcomeStatus) and the external text in it."""

    tool_call_id: str
    name: str
    status: str
    content: str
    sources: list[dict[str, Any]]  # Source.as_dict()


class FailurePayload(TypedDict):
    """An assistant message that stands for a turn that failed: its code; retryable."""

    error: str
    retryable: bool


class ConfirmationPayload(TypedDict):
    """A system note: the customer confirmed a proposal, and what the service answered."""

    proposal: str
    response: dict[str, Any]


class DeclinePayload(TypedDict):
    """A system note: the customer declined a proposal."""

    proposal: str
    declined: bool


DISPUTE_NEWS = "dispute_update"  # DisputeNewsPayload's kind


class DisputeNewsPayload(TypedDict):
    """A system note: staff moved one of the customer's disputes (bankbot/news.py)."""

    kind: str
    dispute: str
    status: str
    note: str


STAFF_PROPOSAL = "staff_proposal"  # StaffProposalPayload's kind


class StaffProposalPayload(TypedDict):
    """A system note: a support staff member proposed an action to the customer
    (bankbot/staff_proposals.py). The page shows its confirm card here, labelled
    with who proposed it; only the customer's click carries it out."""

    kind: str
    proposal: str  # the proposal's reference
    staff: str  # the staff member's name as the card shows it, at proposal time


RETRY = "retry"  # RetryPayload's kind


class RetryPayload(TypedDict):
    """A system note: the customer retried the turn that answers ``message`` (a pk).
    It calls the model as a message does, so the rate limit counts it as one; the
    model never reads it (``is_retry_note``)."""

    kind: str
    message: int


PERSON_OFFER = "person_offer"  # PersonOfferPayload's kind
PERSON_NOTE = "person_note"  # PersonNotePayload's kind


class PersonOfferPayload(TypedDict):
    """A system note: the chat offered "Talk to a specialist" (bankbot/person_request.py
    says why). The model never reads it; the page shows the button."""

    kind: str
    reason: str


class PersonNotePayload(TypedDict):
    """A system note: the conversation's hand-over to a person moved (support/):
    ``event`` is queued, taken, returned or closed; ``name`` the staff member's own
    name (taken, returned, closed); ``position`` and ``opens`` what the customer was
    told when they were queued. The model never reads it."""

    kind: str
    event: str
    name: str
    position: int
    opens: str


Payload = (
    ToolCallsPayload
    | ToolResultPayload
    | FailurePayload
    | ConfirmationPayload
    | DeclinePayload
    | DisputeNewsPayload
    | StaffProposalPayload
    | RetryPayload
    | PersonOfferPayload
    | PersonNotePayload
)


def tool_calls_of(message: Message) -> list[dict[str, Any]]:
    """The tool calls an assistant message made ([] for any other message)."""
    if message.role != Message.Role.ASSISTANT or not isinstance(message.payload, dict):
        return []
    return list(message.payload.get("tool_calls") or [])


def tool_result_of(payload: object) -> ToolResultPayload | None:
    """A stored tool message's payload (as read with ``values_list``), or None."""
    if not isinstance(payload, dict) or "tool_call_id" not in payload:
        return None
    return ToolResultPayload(
        tool_call_id=str(payload["tool_call_id"]),
        name=str(payload.get("name", "")),
        status=str(payload.get("status", "")),
        content=str(payload.get("content", "")),
        sources=list(payload.get("sources") or []),
    )


def failure_of(message: Message) -> FailurePayload | None:
    """The failure an assistant message stands for, or None."""
    payload = message.payload
    if message.role != Message.Role.ASSISTANT or not isinstance(payload, dict) or not payload.get("error"):
        return None
    return FailurePayload(error=str(payload["error"]), retryable=bool(payload.get("retryable")))


def dispute_news_of(message: Message) -> DisputeNewsPayload | None:
    """The dispute news a system message carries, or None."""
    payload = message.payload
    if (
        message.role != Message.Role.SYSTEM
        or not isinstance(payload, dict)
        or payload.get("kind") != DISPUTE_NEWS
    ):
        return None
    return DisputeNewsPayload(
        kind=DISPUTE_NEWS,
        dispute=str(payload.get("dispute", "")),
        status=str(payload.get("status", "")),
        note=str(payload.get("note", "")),
    )


def staff_proposal_of(message: Message) -> StaffProposalPayload | None:
    """The staff proposal a system message stands for, or None."""
    payload = message.payload
    if (
        message.role != Message.Role.SYSTEM
        or not isinstance(payload, dict)
        or payload.get("kind") != STAFF_PROPOSAL
    ):
        return None
    return StaffProposalPayload(
        kind=STAFF_PROPOSAL, proposal=str(payload.get("proposal", "")), staff=str(payload.get("staff", ""))
    )


def is_retry_note(message: Message) -> bool:
    payload = message.payload
    return message.role == Message.Role.SYSTEM and isinstance(payload, dict) and payload.get("kind") == RETRY


def person_offer_of(message: Message) -> PersonOfferPayload | None:
    """The offer of a person a system message carries, or None."""
    payload = message.payload
    if (
        message.role != Message.Role.SYSTEM
        or not isinstance(payload, dict)
        or payload.get("kind") != PERSON_OFFER
    ):
        return None
    return PersonOfferPayload(kind=PERSON_OFFER, reason=str(payload.get("reason", "")))


def person_note_of(message: Message) -> PersonNotePayload | None:
    """The hand-over news a system message carries, or None."""
    payload = message.payload
    if (
        message.role != Message.Role.SYSTEM
        or not isinstance(payload, dict)
        or payload.get("kind") != PERSON_NOTE
    ):
        return None
    position = payload.get("position")
    return PersonNotePayload(
        kind=PERSON_NOTE,
        event=str(payload.get("event", "")),
        name=str(payload.get("name", "")),
        position=position if isinstance(position, int) else 0,
        opens=str(payload.get("opens", "")),
    )


def is_for_the_model(message: Message) -> bool:
    """Whether the model reads this message in its history: not a retry note, nor the
    hand-over's offers and news, nor what a person from support wrote."""
    if message.role == Message.Role.STAFF:
        return False
    return not (is_retry_note(message) or person_offer_of(message) or person_note_of(message))


# --- conversations ------------------------------------------------------------------


def conversations_for(*, customer: Customer) -> QuerySet[Conversation]:
    return Conversation.objects.filter(customer=customer).order_by("-created_at", "-id")


def conversation_public_id(value: object) -> uuid.UUID:
    """A conversation's id as it arrives from outside (a form's field, a socket's route),
    parsed once, here: InvalidInput when it is not a UUID. A URL's ``<uuid:…>`` has
    parsed it already."""
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return uuid.UUID(value)
    raise InvalidInput(_("The conversation id is not valid."), code="invalid_conversation_id")


def conversation_get(*, customer: Customer, public_id: uuid.UUID) -> Conversation:
    try:
        return Conversation.objects.get(customer=customer, public_id=public_id)
    except Conversation.DoesNotExist:
        raise NotFound(_("This conversation was not found."), code="conversation_not_found") from None


def conversation_of_user(*, user: SessionUser, public_id: object) -> Conversation | None:
    """The socket's conversation: the signed-in user's own (its customer and user loaded),
    or None: not a customer, not theirs, or ``public_id`` (as the socket's route gives it,
    parsed here) not a conversation's id, answered alike."""
    if not isinstance(user, get_user_model()):  # anonymous: no customer
        return None
    try:
        parsed = conversation_public_id(public_id)
    except InvalidInput:
        return None
    customer = Customer.objects.select_related("user").filter(user=user).first()
    if customer is None:
        return None
    try:
        conversation = conversation_get(customer=customer, public_id=parsed)
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
    text = _message_text(text, ui_action)
    _check_client_message_id(client_message_id)
    if client_message_id:
        existing = conversation.messages.filter(client_message_id=client_message_id).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            message = _store_customer_message(conversation, text, client_message_id, ui_action)
    except IntegrityError:  # the same frame raced in on another connection
        return conversation.messages.get(client_message_id=client_message_id), False
    return message, True


def _message_text(text: str, ui_action: dict[str, str] | None) -> str:
    """The text to store, or InvalidInput: too long, or nothing sent at all."""
    text = without_nul((text or "").strip())
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(
            _("Your message is %(count)d characters long; the limit is %(limit)d. Please shorten it.")
            % {"count": len(text), "limit": MAX_MESSAGE_CHARS},
            code="message_too_long",
        )
    if not text and not ui_action:
        raise InvalidInput(_("The message is empty."), code="message_empty")
    return text


def _store_customer_message(
    conversation: Conversation, text: str, client_message_id: str | None, ui_action: dict[str, str] | None
) -> Message:
    """The INSERT, and the conversation's title from its first words if it has none."""
    message = Message.objects.create(
        conversation=conversation,
        role=Message.Role.CUSTOMER,
        text=text,
        ui_action=ui_action,
        client_message_id=client_message_id or None,
    )
    if not conversation.title and text:
        Conversation.objects.filter(pk=conversation.pk).update(title=text[:60])
    return message


def _check_client_message_id(client_message_id: object) -> None:
    if client_message_id is None:
        return
    if (
        not isinstance(client_message_id, str)
        or len(client_message_id) > MAX_CLIENT_ID_CHARS
        or not client_message_id.isprintable()
    ):
        raise InvalidInput(_("The message id is not valid."), code="invalid_message_id")


def _counted() -> Q:
    """The messages the rate limit counts: the customer's own and their retries, in
    the last ``RATE_LIMIT_WINDOW``; each called the model once."""
    return Q(created_at__gte=timezone.now() - RATE_LIMIT_WINDOW) & (
        Q(role=Message.Role.CUSTOMER) | Q(role=Message.Role.SYSTEM, payload__kind=RETRY)
    )


def customer_rate_limited(*, customer: Customer) -> bool:
    """Whether the customer's messages and retries in the last minute reach the limit."""
    recent = Message.objects.filter(_counted(), conversation__customer=customer).count()
    return recent >= RATE_LIMIT_MESSAGES


def _hold_the_customer(conversation: Conversation) -> None:
    """Lock the customer's row for the rest of the transaction: messages and retries
    arriving at once — on several sockets, tabs or workers — are counted one after
    another. On SQLite the IMMEDIATE transaction (bankbot/settings.py) has already
    taken the database's write lock, and a SELECT … FOR UPDATE is not SQLite's: there
    it would be a query that locks nothing, so none is made."""
    if connection.features.has_select_for_update:
        Customer.objects.select_for_update(no_key=True).filter(pk=conversation.customer_id).first()


def _rate_limited() -> InvalidInput:
    return InvalidInput(
        _("You have sent %(count)d messages in the last minute. Please wait a moment and try again.")
        % {"count": RATE_LIMIT_MESSAGES},
        code="rate_limited",
    )


def _refuse_past_the_rate_limit(conversation: Conversation) -> None:
    if customer_rate_limited(customer=conversation.customer):
        raise _rate_limited()


def _resent_and_recent(conversation: Conversation, client_message_id: str | None) -> tuple[bool, int]:
    """In one query: whether this client message id is stored in the conversation
    already (a resent frame), and how many messages the rate limit counts for its
    customer — the customer's messages that are either."""
    counted = _counted()
    if not client_message_id:
        return False, Message.objects.filter(
            counted, conversation__customer_id=conversation.customer_id
        ).count()
    resent = Q(conversation=conversation, client_message_id=client_message_id)
    found = Message.objects.filter(
        counted | resent, conversation__customer_id=(conversation.customer_id)
    ).aggregate(recent=Count("pk", filter=counted), resent=Count("pk", filter=resent))
    return bool(found["resent"]), found["recent"]


def message_accept(
    *, conversation: Conversation, text: str, client_message_id: str | None, ui_action: dict[str, str] | None
) -> Message | None:
    """Store the customer's message, or raise InvalidInput (rate limit, too long,
    empty). None: this client message id was stored before (a resent frame).

    Counting and storing are one transaction holding the customer's row, so
    simultaneous messages never store more than the limit; a resent frame is found
    and the messages counted in one query (a burst of customers' messages is
    accepted one after another on a worker's database thread: docs/benchmarks.md,
    part g). Every message with a client message id is stored here, under that
    hold, so the same id cannot race in; if it ever did, the unique constraint
    refuses it, the transaction is rolled back and the frame is answered as resent."""
    _check_client_message_id(client_message_id)
    try:
        with transaction.atomic():
            _hold_the_customer(conversation)
            resent, recent = _resent_and_recent(conversation, client_message_id)
            if resent:
                return None  # a resent frame: stored before, and not counted again
            if recent >= RATE_LIMIT_MESSAGES:
                raise _rate_limited()
            return _store_customer_message(
                conversation, _message_text(text, ui_action), client_message_id, ui_action
            )
    except IntegrityError:
        if client_message_id and conversation.messages.filter(client_message_id=client_message_id).exists():
            return None
        raise


def message_retry_accept(*, conversation: Conversation) -> Message | None:
    """The customer's message to answer again (``message_to_retry``), or None: nothing
    to retry. A retry calls the model as a message does, so it passes the same rate
    limit, in the same transaction on the customer's row, and is counted as one: a
    note on the record (RetryPayload). Raises InvalidInput past the limit."""
    with transaction.atomic():
        _hold_the_customer(conversation)
        message = message_to_retry(conversation=conversation)
        if message is None:
            return None
        _refuse_past_the_rate_limit(conversation)
        message_add(
            conversation=conversation,
            role=Message.Role.SYSTEM,
            text="The customer retried their message.",
            payload=RetryPayload(kind=RETRY, message=message.pk),
        )
    return message


def message_to_retry(*, conversation: Conversation) -> Message | None:
    """The customer's latest message, if its turn ended without an answer: the
    model failed (a stored, retryable error), or the turn broke off (a crash, a
    lost worker) after the message or a tool call was stored."""
    latest = (
        conversation.messages.exclude(role__in=[Message.Role.TOOL, Message.Role.SYSTEM])
        .order_by("-id")
        .first()
    )
    if latest is None:
        return None
    if latest.role == Message.Role.CUSTOMER:
        return latest
    failure = failure_of(latest)
    if not ((failure and failure["retryable"]) or tool_calls_of(latest)):
        return None
    return conversation.messages.filter(role=Message.Role.CUSTOMER, id__lt=latest.id).order_by("-id").first()


def message_add(
    *,
    conversation: Conversation,
    role: str,
    text: str = "",
    payload: Payload | None = None,
    flagged: str = "",
) -> Message:
    return Message.objects.create(
        conversation=conversation,
        role=role,
        text=without_nul(text),
        payload=without_nul(payload),
        flagged=flagged[:300],
    )


def confirmation_note(*, proposal: Proposal, response: JSONObject) -> Message:
    """The result of a click joins the conversation, for the model's next turn."""
    text = f"The customer confirmed “{proposal.summary}”. Result: " + json.dumps(response, ensure_ascii=False)
    return message_add(
        conversation=proposal.conversation,
        role=Message.Role.SYSTEM,
        text=text,
        payload=ConfirmationPayload(proposal=proposal.reference, response=response),
    )


def decline_note(*, proposal: Proposal) -> Message:
    return message_add(
        conversation=proposal.conversation,
        role=Message.Role.SYSTEM,
        text=f"The customer declined “{proposal.summary}”.",
        payload=DeclinePayload(proposal=proposal.reference, declined=True),
    )
