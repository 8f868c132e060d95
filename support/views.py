"""The hand-over's pages. The customer's one post: "Talk to a specialist" in their own
conversation (``ask``). Staff's: the queue, one conversation — its whole transcript, the
customer's language, cards and recent disputes — and take, write, propose an action
(the customer's confirm card; only their click carries it out), hand back, close.

Staff pages extend admin's look (``admin/base_site.html``) and update by HTMX polling
of the transcript and the queue (every few seconds): each poll is an ordinary request,
checked like every other staff request (signed in, the Support group's permission, the
hand-over queued or held by them), and reads the database, so it works the same
whichever worker answers. The customer's side is live over the chat's own socket."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Customer
from accounts.selectors import cards_for_customer
from bankbot.chat import conversation_get, conversation_public_id, person_note_of, tool_calls_of
from bankbot.handover import staff_display_name
from bankbot.htmx import HtmxHttpRequest
from bankbot.models import Message
from bankbot.views import customer_view
from disputes.reasons import REASON_LABELS
from disputes.selectors import disputes_for_customer
from errors import DomainError, InvalidInput, NotFound, NotPermitted
from support import services
from support.models import Handoff, HandoffEvent
from tools.json_types import JSONValue

_P = ParamSpec("_P")

POLL_SECONDS = 3
# The hand-over's notes in the conversation, as staff read them in the transcript.
NOTE_LABELS = {
    "queued": HandoffEvent.Kind.ASKED.label,
    "taken": HandoffEvent.Kind.TAKEN.label,
    "returned": HandoffEvent.Kind.RETURNED.label,
    "closed": HandoffEvent.Kind.CLOSED.label,
}
RECENT_DISPUTES = 5


# --- the customer -----------------------------------------------------------------


@require_POST
@customer_view
def ask(request: HtmxHttpRequest, customer: Customer) -> HttpResponse:
    """Queue the customer's own conversation for a specialist. The queue's answer (their
    place, or when staff are in) reaches every open tab as a note in the chat."""
    try:
        public_id = conversation_public_id(request.POST.get("conversation", ""))
        conversation = conversation_get(customer=customer, public_id=public_id)
    except (InvalidInput, NotFound):
        raise Http404("no such conversation") from None
    try:
        services.handoff_request(
            conversation=conversation,
            reason=request.POST.get("reason", ""),
            language=translation.get_language() or "",
        )
    except InvalidInput as error:
        return HttpResponse(error.message, status=400)
    if request.htmx:
        return render(request, "support/asked.html")
    return HttpResponseRedirect(reverse("conversation", args=[conversation.public_id]) + "#messages")


# --- staff --------------------------------------------------------------------------


def support_view(
    view: Callable[Concatenate[HtmxHttpRequest, User, _P], HttpResponse],
) -> Callable[Concatenate[HtmxHttpRequest, _P], HttpResponse]:
    """Signed in as staff (else admin's sign-in), with the Support group's permission to
    take conversations (else 403); never kept by a cache."""

    @functools.wraps(view)
    def wrapped(request: HtmxHttpRequest, /, *args: _P.args, **kwargs: _P.kwargs) -> HttpResponse:
        try:
            staff = services.staff_check(request.user)
        except NotPermitted:
            raise PermissionDenied from None
        return view(request, staff, *args, **kwargs)

    return staff_member_required(never_cache(wrapped))


def _handoff_or_404(staff: User, pk: int) -> Handoff:
    try:
        return services.handoff_get(staff=staff, pk=pk)
    except NotFound:
        raise Http404("not in the queue or held by you") from None


def transcript(handoff: Handoff) -> list[dict[str, Any]]:
    """The whole conversation as staff read it: what the customer and the assistant
    said, staff's messages and the hand-over's steps (tool calls and notes for the
    model left out; their results are in the admin's trail)."""
    rows: list[dict[str, Any]] = []
    for message in handoff.conversation.messages.select_related("author"):
        if message.role == Message.Role.CUSTOMER:
            rows.append({"who": "customer", "message": message})
        elif message.role == Message.Role.ASSISTANT and message.text and not tool_calls_of(message):
            rows.append({"who": "assistant", "message": message})
        elif message.role == Message.Role.STAFF:
            name = staff_display_name(message.author) if message.author is not None else ""
            rows.append({"who": "staff", "message": message, "name": name})
        elif (note := person_note_of(message)) is not None:
            label = NOTE_LABELS.get(note["event"], note["event"])
            rows.append({"who": "note", "message": message, "note": note, "label": label})
    return rows


@require_GET
@support_view
def queue(request: HtmxHttpRequest, staff: User) -> HttpResponse:
    handoffs = list(services.handoffs_visible_to(staff))
    context = {
        "title": translation.gettext("Conversations for support"),
        "queued": [h for h in handoffs if h.state == Handoff.State.QUEUED],
        "mine": [h for h in handoffs if h.state == Handoff.State.HELD],
        "poll_seconds": POLL_SECONDS,
    }
    if request.htmx:
        return render(request, "support/queue.html#queue-body", context)
    return render(request, "support/queue.html", context)


def _conversation_context(staff: User, handoff: Handoff, error: str = "") -> dict[str, Any]:
    customer = handoff.conversation.customer
    return {
        "title": translation.gettext("Conversation with %(name)s") % {"name": customer.full_name},
        "handoff": handoff,
        "customer": customer,
        "rows": transcript(handoff),
        "cards": cards_for_customer(customer=customer),
        "disputes": disputes_for_customer(customer=customer, limit=RECENT_DISPUTES),
        "holds": handoff.state == Handoff.State.HELD and handoff.holder_id == staff.pk,
        "poll_seconds": POLL_SECONDS,
        "error": error,
        "language_name": dict(settings.LANGUAGES).get(handoff.language, handoff.language),
        "dispute_reasons": list(REASON_LABELS.items()),
    }


@require_GET
@support_view
def conversation(request: HtmxHttpRequest, staff: User, pk: int) -> HttpResponse:
    handoff = _handoff_or_404(staff, pk)
    if request.htmx:  # the poll: the transcript only
        return render(request, "support/conversation.html#transcript", _conversation_context(staff, handoff))
    return render(request, "support/conversation.html", _conversation_context(staff, handoff))


def _act(request: HtmxHttpRequest, staff: User, pk: int, action: Callable[[], object]) -> HttpResponse:
    """Carry out a staff action; a refusal is shown on the conversation's page (or, once
    it is no longer theirs to open, the queue with the reason)."""
    try:
        action()
    except DomainError as error:
        try:
            handoff = services.handoff_get(staff=staff, pk=pk)
        except NotFound:
            return render(
                request,
                "support/queue.html",
                {
                    "title": translation.gettext("Conversations for support"),
                    "queued": [
                        h for h in services.handoffs_visible_to(staff) if h.state == Handoff.State.QUEUED
                    ],
                    "mine": [h for h in services.handoffs_visible_to(staff) if h.state == Handoff.State.HELD],
                    "poll_seconds": POLL_SECONDS,
                    "error": error.message,
                },
                status=409,
            )
        return render(
            request,
            "support/conversation.html",
            _conversation_context(staff, handoff, error.message),
            status=409,
        )
    try:
        services.handoff_get(staff=staff, pk=pk)
    except NotFound:  # handed back or closed: no longer theirs to open
        return HttpResponseRedirect(reverse("support:queue"))
    return HttpResponseRedirect(reverse("support:conversation", args=[pk]))


@require_POST
@support_view
def take(request: HtmxHttpRequest, staff: User, pk: int) -> HttpResponse:
    _handoff_or_404(staff, pk)  # queued or theirs; anything else is not found
    return _act(request, staff, pk, lambda: services.handoff_take(staff=staff, pk=pk))


@require_POST
@support_view
def say(request: HtmxHttpRequest, staff: User, pk: int) -> HttpResponse:
    _handoff_or_404(staff, pk)
    text = request.POST.get("text", "")
    return _act(request, staff, pk, lambda: services.staff_message(staff=staff, pk=pk, text=text))


@require_POST
@support_view
def propose(request: HtmxHttpRequest, staff: User, pk: int) -> HttpResponse:
    """The holder's proposal form: which write, and its target. The arguments go to the
    tool's own checks unchanged (bankbot/staff_proposals.py); this only picks the fields."""
    _handoff_or_404(staff, pk)
    tool = request.POST.get("tool", "")
    arguments = _proposal_arguments(tool, request.POST)
    return _act(
        request, staff, pk, lambda: services.staff_propose(staff=staff, pk=pk, tool=tool, arguments=arguments)
    )


def _proposal_arguments(tool: str, form: QueryDict) -> dict[str, JSONValue]:
    if tool == "raise_dispute":
        return {
            "transaction": form.get("transaction", "").strip().upper(),
            "amount": form.get("amount", "").strip().replace(" ", "").replace(",", "."),
            "reason": form.get("reason", ""),
        }
    return {"card": form.get("card", "")}


@require_POST
@support_view
def hand_back(request: HtmxHttpRequest, staff: User, pk: int) -> HttpResponse:
    _handoff_or_404(staff, pk)
    return _act(request, staff, pk, lambda: services.handoff_return(staff=staff, pk=pk))


@require_POST
@support_view
def close(request: HtmxHttpRequest, staff: User, pk: int) -> HttpResponse:
    _handoff_or_404(staff, pk)
    return _act(request, staff, pk, lambda: services.handoff_close(staff=staff, pk=pk))
