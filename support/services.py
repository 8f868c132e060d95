"""The hand-over's services: the only code that changes a ``Handoff``. Every rule of it
lives here, not in a view:

- a customer asks only in their own conversation, once at a time (a second ask while
  one is open answers the open one);
- taking is atomic: one conditional UPDATE from queued to held, so of any number of
  staff clicking "take" at once, in any worker, exactly one holds it;
- only the holder writes to the customer, hands back or closes, each checked under the
  hand-over's row lock in the transaction that writes;
- a staff member sees only a hand-over that is queued or that they hold;
- the holder may propose a write (block, unblock, dispute of a named row): the same
  confirm card, labelled with their name, carried out only by the customer's click
  (``bankbot/staff_proposals.py``); staff never execute one;
- every step is an event on the hand-over's record and a note in the conversation,
  pushed live to the customer's open tabs (``bankbot/person_push.py``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.text import without_nul
from bankbot.chat import PERSON_NOTE, PersonNotePayload, message_add
from bankbot.handover import staff_display_name, staff_name
from bankbot.models import Conversation, Message
from bankbot.person_push import push_person
from bankbot.person_request import REASONS
from bankbot.staff_proposals import StaffProposalRefused, propose_for_customer
from errors import Conflict, InvalidInput, NotFound, NotPermitted
from support.hours import next_opening
from support.models import Handoff, HandoffEvent
from tools.json_types import JSONValue
from tools.models import Proposal

TAKE_PERMISSION = "support.take_handoff"
MAX_STAFF_MESSAGE_CHARS = 2000
OPEN = (Handoff.State.QUEUED, Handoff.State.HELD)

StaffUser = User | AnonymousUser


@dataclass(frozen=True)
class Asked:
    handoff: Handoff
    position: int  # in the queue, 1 = next; 0 once held
    opens: str  # when staff are next in, said in the page's language ("" while they are in)


def staff_check(staff: StaffUser) -> User:
    """Only active staff with the Support group's ``take_handoff`` permission."""
    if not (
        isinstance(staff, User) and staff.is_active and staff.is_staff and staff.has_perm(TAKE_PERMISSION)
    ):
        raise NotPermitted(_("Only support staff can do this."), code="not_support_staff")
    return staff


def _note(
    conversation: Conversation, event: str, *, name: str = "", position: int = 0, opens: str = ""
) -> Message:
    message = message_add(
        conversation=conversation,
        role=Message.Role.SYSTEM,
        payload=PersonNotePayload(kind=PERSON_NOTE, event=event, name=name, position=position, opens=opens),
    )
    push_person(message)
    return message


def queue_position(handoff: Handoff) -> int:
    """1 for the next to be taken; 0 when it is not queued."""
    if handoff.state != Handoff.State.QUEUED:
        return 0
    return (
        Handoff.objects.filter(state=Handoff.State.QUEUED, requested_at__lte=handoff.requested_at)
        .filter(Q(requested_at__lt=handoff.requested_at) | Q(pk__lte=handoff.pk))
        .count()
    )


def handoff_request(*, conversation: Conversation, reason: str, language: str = "") -> Asked:
    """The customer clicked "Talk to a specialist" in their conversation (the caller has
    checked it is theirs). Queued with the reason, or the open hand-over answered."""
    if reason not in REASONS:
        raise InvalidInput(_("That is not a reason the chat offers a specialist for."), code="invalid_reason")
    opening = next_opening()
    opens = formats.time_format(timezone.localtime(opening), "H:i") if opening is not None else ""
    try:
        with transaction.atomic():
            handoff = Handoff.objects.create(conversation=conversation, reason=reason, language=language[:8])
            HandoffEvent.objects.create(handoff=handoff, kind=HandoffEvent.Kind.ASKED, text=reason)
            position = queue_position(handoff)
            _note(conversation, "queued", position=position, opens=opens)
    except IntegrityError:  # one is open already (the constraint): that one answers
        handoff = Handoff.objects.get(conversation=conversation, state__in=OPEN)
        position = queue_position(handoff)
    return Asked(handoff=handoff, position=position, opens=opens)


def handoffs_visible_to(staff: StaffUser) -> QuerySet[Handoff]:
    """The queue and what this staff member holds: all they may open."""
    user = staff_check(staff)
    return Handoff.objects.filter(
        Q(state=Handoff.State.QUEUED) | Q(state=Handoff.State.HELD, holder=user)
    ).select_related("conversation__customer", "holder")


def handoff_get(*, staff: StaffUser, pk: int) -> Handoff:
    """One hand-over this staff member may open; any other answers "not found", as a
    missing one does (held by someone else, returned, closed)."""
    try:
        return handoffs_visible_to(staff).get(pk=pk)
    except Handoff.DoesNotExist:
        raise NotFound(
            _("This conversation is not in the queue or held by you."), code="handoff_not_found"
        ) from None


def handoff_take(*, staff: StaffUser, pk: int) -> Handoff:
    """Take a queued hand-over: one conditional UPDATE, so one taker wins."""
    user = staff_check(staff)
    with transaction.atomic():
        taken = Handoff.objects.filter(pk=pk, state=Handoff.State.QUEUED, holder__isnull=True).update(
            state=Handoff.State.HELD, holder=user, taken_at=timezone.now()
        )
        if not taken:
            if Handoff.objects.filter(pk=pk, state=Handoff.State.HELD, holder=user).exists():
                return Handoff.objects.get(pk=pk)  # taken by this staff member already
            raise Conflict(
                _("Someone else has taken this conversation, or it is no longer queued."),
                code="handoff_taken",
            )
        handoff = Handoff.objects.select_related("conversation").get(pk=pk)
        HandoffEvent.objects.create(handoff=handoff, kind=HandoffEvent.Kind.TAKEN, actor=user)
        _note(handoff.conversation, "taken", name=staff_name(user))
    return handoff


def _held_by(user: User, pk: int) -> Handoff:
    """Under the row lock: the hand-over, if this staff member holds it now."""
    handoff = Handoff.objects.select_for_update().filter(pk=pk).first()
    if handoff is None or handoff.state != Handoff.State.HELD or handoff.holder_id != user.pk:
        raise NotPermitted(_("You do not hold this conversation."), code="not_holder")
    return Handoff.objects.select_related("conversation").get(pk=pk)


def staff_message(*, staff: StaffUser, pk: int, text: str) -> Message:
    """The holder writes to the customer: stored as the staff member's message, on the
    record, and pushed to the customer's open tabs."""
    user = staff_check(staff)
    text = without_nul(text).strip()
    if not text:
        raise InvalidInput(_("Write a message first."), code="empty_message")
    if len(text) > MAX_STAFF_MESSAGE_CHARS:
        raise InvalidInput(
            _("A message is at most %(limit)d characters.") % {"limit": MAX_STAFF_MESSAGE_CHARS},
            code="message_too_long",
        )
    with transaction.atomic():
        handoff = _held_by(user, pk)
        message = Message.objects.create(
            conversation=handoff.conversation, role=Message.Role.STAFF, text=text, author=user
        )
        HandoffEvent.objects.create(handoff=handoff, kind=HandoffEvent.Kind.MESSAGE, actor=user, text=text)
        push_person(message)
    return message


def staff_propose(*, staff: StaffUser, pk: int, tool: str, arguments: Mapping[str, JSONValue]) -> Proposal:
    """The holder proposes a write to the customer. Only the holder, checked under the
    row lock; the proposal is the same confirm card, labelled as theirs and executed only
    by the customer's click. A refusal (a foreign card, a row not named, a read tool…)
    is kept on the trace by ``propose_for_customer`` and raised once this commits."""
    user = staff_check(staff)
    refused: StaffProposalRefused | None = None
    with transaction.atomic():
        handoff = _held_by(user, pk)
        try:
            proposal = propose_for_customer(
                conversation=handoff.conversation, staff=user, tool=tool, arguments=arguments
            )
        except StaffProposalRefused as refusal:  # its savepoint is rolled back; its trace row stays
            refused = refusal
        else:
            HandoffEvent.objects.create(
                handoff=handoff,
                kind=HandoffEvent.Kind.PROPOSED,
                actor=user,
                text=f"{tool} {json.dumps(dict(arguments), sort_keys=True)} ({proposal.reference})",
            )
    if refused is not None:
        raise refused
    return proposal


def _end(staff: StaffUser, pk: int, state: str, kind: str) -> Handoff:
    user = staff_check(staff)
    with transaction.atomic():
        handoff = _held_by(user, pk)
        Handoff.objects.filter(pk=pk).update(state=state, ended_at=timezone.now())
        HandoffEvent.objects.create(handoff=handoff, kind=kind, actor=user)
        _note(handoff.conversation, kind, name=staff_name(user))
        handoff.refresh_from_db()
    return handoff


def handoff_return(*, staff: StaffUser, pk: int) -> Handoff:
    """The holder hands the conversation back to the assistant: it answers again."""
    return _end(staff, pk, Handoff.State.RETURNED, HandoffEvent.Kind.RETURNED)


def handoff_close(*, staff: StaffUser, pk: int) -> Handoff:
    """The holder closes the hand-over (the matter is settled); the assistant answers again."""
    return _end(staff, pk, Handoff.State.CLOSED, HandoffEvent.Kind.CLOSED)


class SupportHandover:
    """The chat's seam (``bankbot/handover.py``): who holds a conversation now."""

    def holder_name(self, conversation: Conversation) -> str | None:
        handoff = (
            Handoff.objects.filter(conversation=conversation, state=Handoff.State.HELD)
            .select_related("holder")
            .first()
        )
        if handoff is None or handoff.holder is None:
            return None
        return staff_display_name(handoff.holder)
