"""The customer's pages: the chat, earlier conversations, statements, and the
Confirm / Decline endpoints of the confirm cards.

Every view works as a plain form post first; htmx requests get the partial of
the same template (``chat.html#proposal-card``). Whose data a view shows comes
from the session's customer alone: another customer's conversation or proposal
is a 404, exactly like one that does not exist.

A database outage is a 503 that says what happened and what to do, never a 500
(bankbot/outage.py); the views that act (send, confirm, decline) keep their form
for Try again, and say so when the outage came after their write.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Customer, Transaction
from accounts.selectors import (
    PAGES_FROM_ONE,
    cards_for_customer,
    parse_month,
    statement_for_month,
)
from bankbot import turn_store
from bankbot.agent import run_turn
from bankbot.card_push import push_cards
from bankbot.chat import (
    MAX_MESSAGE_CHARS,
    confirmation_note,
    conversation_fresh,
    conversation_get,
    conversation_public_id,
    conversation_start,
    conversations_for,
    decline_note,
    message_accept,
    message_retry_accept,
)
from bankbot.chat_input import chat_input_from
from bankbot.fragments import timeline
from bankbot.htmx import HtmxHttpRequest
from bankbot.models import Conversation, Message
from bankbot.outage import (
    DATABASE_ERRORS,
    MESSAGE_NOT_ANSWERED,
    RESULT_NOT_SHOWN,
    WORKER_BUSY,
    Outage,
    keeps_its_form,
)
from bankbot.turns import turn_slots
from errors import DomainError, InvalidInput, NotFound
from tools import proposals
from tools.catalog import card_row, transaction_row
from tools.context import InvalidAuthorizationContext
from tools.json_types import JSONObject
from tools.models import Proposal

_P = ParamSpec("_P")  # a view's own arguments: the URL's, as its converters give them


def customer_view(
    view: Callable[Concatenate[HtmxHttpRequest, Customer, _P], HttpResponse],
) -> Callable[Concatenate[HtmxHttpRequest, _P], HttpResponse]:
    """Signed in, and a customer: the view gets the session's Customer. Staff
    without a customer record get a page that points them to the admin. Nothing
    a customer's page shows is kept by a browser or proxy cache (no-store)."""

    @functools.wraps(view)
    def wrapped(request: HtmxHttpRequest, /, *args: _P.args, **kwargs: _P.kwargs) -> HttpResponse:
        customer = _customer_of(request)
        if customer is None:
            return render(request, "bankbot/no_customer.html", status=403)
        return view(request, customer, *args, **kwargs)

    return login_required(never_cache(wrapped))


def _customer_of(request: HtmxHttpRequest) -> Customer | None:
    user = request.user
    return Customer.objects.filter(user=user).first() if user.is_authenticated else None


def _conversation_or_404(customer: Customer, public_id: uuid.UUID) -> Conversation:
    try:
        return conversation_get(customer=customer, public_id=public_id)
    except NotFound:
        raise Http404("conversation not found") from None


def _posted_conversation_id(value: str) -> uuid.UUID:
    """The conversation a form names, parsed where it arrives. One that is not an id
    is a 404, like a conversation that does not exist."""
    try:
        return conversation_public_id(value)
    except InvalidInput as error:
        raise Http404(error.english) from None


def _conversation_url(conversation: Conversation, anchor: str = "") -> str:
    url = reverse("conversation", kwargs={"public_id": conversation.public_id})
    return f"{url}#{anchor}" if anchor else url


# --- chat ---------------------------------------------------------------------


@require_GET
@login_required
@never_cache
def home(request: HtmxHttpRequest) -> HttpResponse:
    """Where signing in lands: a customer's latest conversation; staff go to admin."""
    customer = _customer_of(request)
    if customer is None:
        if request.user.is_staff:
            return redirect("admin:index")
        return render(request, "bankbot/no_customer.html", status=403)
    conversation = conversations_for(customer=customer).first()
    if conversation is None:
        conversation = conversation_start(customer=customer)
    return redirect(_conversation_url(conversation))


@require_GET
@customer_view
def conversation_detail(request: HtmxHttpRequest, customer: Customer, public_id: uuid.UUID) -> HttpResponse:
    conversation = _conversation_or_404(customer, public_id)
    if conversation.news_unseen:  # opened: its news is seen, the sidebar's mark goes
        Conversation.objects.filter(pk=conversation.pk).update(news_unseen=False)
        conversation.news_unseen = False
    return _chat_page(request, customer, conversation)


def _chat_page(
    request: HtmxHttpRequest,
    customer: Customer,
    conversation: Conversation,
    *,
    draft: str = "",
    refused: str = "",
    status: int = 200,
) -> HttpResponse:
    """The chat page; after a refused form post, with the customer's text kept in
    the composer and the reason beside it. The customer's latest message is the
    page's #latest, where a send without JavaScript lands."""
    items = timeline(conversation, *turn_store.in_flight(conversation.public_id.hex))
    said = [item["message"] for item in items if item["kind"] == "customer"]
    return render(
        request,
        "bankbot/chat.html",
        {
            "customer": customer,
            "nav": "chat",
            "conversation": conversation,
            "conversations": conversations_for(customer=customer)[:50],
            "items": items,
            "latest_message": said[-1] if said else None,
            "client_message_id": uuid.uuid4().hex,
            "max_message_chars": MAX_MESSAGE_CHARS,
            "draft": draft,
            "refused": refused,
        },
        status=status,
    )


@require_POST
@customer_view
def conversation_new(request: HtmxHttpRequest, customer: Customer) -> HttpResponse:
    return redirect(_conversation_url(conversation_fresh(customer=customer)))


@require_POST
@keeps_its_form
@customer_view
def message_send(request: HtmxHttpRequest, customer: Customer) -> HttpResponse:
    """The chat without JavaScript: store the message, answer it, show the page
    scrolled to it. A refused message comes back in the composer, with the reason.
    (With JavaScript the same form goes over the WebSocket instead.)"""
    posted = request.POST.get("conversation", "")
    if posted:
        conversation = _conversation_or_404(customer, _posted_conversation_id(posted))
    else:  # a "Dispute…" or "Block…" button on the statement page, no chat yet
        conversation = conversation_fresh(customer=customer)
    try:
        chat_input = chat_input_from(request.POST)
        if chat_input.is_retry:
            message = message_retry_accept(conversation=conversation)
        else:
            message = message_accept(
                conversation=conversation,
                text=chat_input.text,
                client_message_id=chat_input.client_message_id,
                ui_action=chat_input.ui_action,
            )
    except InvalidInput as error:
        draft = request.POST.get("text", "") if not request.POST.get("operation") else ""
        return _chat_page(
            request,
            customer,
            conversation,
            draft=draft,
            refused=error.message,
            status=429 if error.code == "rate_limited" else 400,
        )
    if message is not None:
        _answer(request, conversation, message)
    # The newest exchange in view: the customer's latest message and its answer.
    return redirect(_conversation_url(conversation, "latest"))


def _answer(request: HtmxHttpRequest, conversation: Conversation, message: Message) -> None:
    """The stored message's turn, in one of the worker's turn slots, as on the socket
    (bankbot/turns.py): beyond them the customer is told to wait, and Try again retries."""
    retry = {"conversation": str(conversation.public_id), "action": "retry"}
    slots = turn_slots()
    if not slots.take():
        raise Outage(WORKER_BUSY, retry=retry)
    try:
        run_turn(user=request.user, conversation=conversation, customer_message=message)
    except DATABASE_ERRORS as error:  # the message is stored; Try again answers it
        raise Outage(MESSAGE_NOT_ANSWERED, retry=retry) from error
    finally:
        slots.give_back()


# --- statements ---------------------------------------------------------------


@require_GET
@customer_view
def statement(request: HtmxHttpRequest, customer: Customer) -> HttpResponse:
    month = request.GET.get("month") or f"{timezone.localdate():%Y-%m}"
    context: dict[str, Any] = {
        "customer": customer,
        "nav": "statement",
        "month": month,
        "cards_result": {"cards": [card_row(c) for c in cards_for_customer(customer=customer)]},
        # No conversation: a row's button starts its action in a conversation of its
        # own (message_send), and the chat opens on it with the confirm card.
    }
    try:
        page = _page_number(request.GET.get("page"))
        result = statement_for_month(customer=customer, month=month, page=page)
    except InvalidInput as error:  # a month or page out of range: said, never a 500
        context["error"] = error.message
        return render(request, "bankbot/statement.html", context, status=400)
    parsed = parse_month(month)
    context.update(
        statement={
            "month": str(result.month),
            "transactions": [_transaction_row(t) for t in result.transactions],
            "count": result.count,
            "total_kzt": f"{result.total:.2f}",
            "has_more": result.has_more,
            "latest_month_with_transactions": result.latest_earlier and str(result.latest_earlier),
        },
        page=result.page,
        previous_month=_shift(parsed.year, parsed.month, -1),
        next_month=_shift(parsed.year, parsed.month, 1),
    )
    return render(request, "bankbot/statement.html", context)


def _page_number(value: str | None) -> int:
    try:
        return int(value or 1)
    except ValueError:  # not a number (or one of thousands of digits)
        raise InvalidInput(PAGES_FROM_ONE, code="invalid_page") from None


def _transaction_row(txn: Transaction) -> dict[str, Any]:
    # The same shape as get_statement's rows, so one partial renders both.
    return transaction_row(txn, for_model=False)


def _shift(year: int, month: int, delta: int) -> str:
    """The month before or after, or "" past the months a statement can name."""
    index = year * 12 + (month - 1) + delta
    shifted = f"{index // 12:04d}-{index % 12 + 1:02d}"
    try:
        return str(parse_month(shifted))
    except InvalidInput:
        return ""


# --- confirm cards --------------------------------------------------------------


@require_GET
@customer_view
def proposal_detail(request: HtmxHttpRequest, customer: Customer, public_id: uuid.UUID) -> HttpResponse:
    """The confirm card as it stands now. app.js asks for it when a pending card's
    time is up, so the card turns expired by itself (or shows what happened to it
    in another tab)."""
    proposal = proposals.proposal_get(customer=customer, public_id=public_id)
    if proposal is None:
        return _proposal_missing(request)
    if not request.htmx:
        return HttpResponseRedirect(
            _conversation_url(proposal.conversation, f"proposal-{proposal.public_id}")
        )
    return render(request, "bankbot/chat.html#proposal-card", {"proposal": proposal})


@require_POST
@keeps_its_form
@customer_view
def proposal_confirm_view(request: HtmxHttpRequest, customer: Customer, public_id: uuid.UUID) -> HttpResponse:
    try:
        outcome = proposals.proposal_confirm(
            user=request.user,
            public_id=public_id,
            digest=request.POST.get("digest", ""),
            then=_note_confirmation,
        )
    except (NotFound, InvalidAuthorizationContext):
        return _proposal_missing(request)
    except DomainError as error:
        if error.code == "proposal_expired":  # this click may have put it on the record
            _push_current(customer, public_id)
        return _proposal_card(request, customer, public_id, error=error)
    if not outcome.replayed:
        push_cards([outcome.proposal])  # every other open view of the conversation
    try:
        # The proposal as the confirmation left it: no need to read it back.
        return _proposal_card(request, customer, public_id, proposal=outcome.proposal)
    except DATABASE_ERRORS as error:  # done, and a second click replays it
        raise Outage(RESULT_NOT_SHOWN) from error


@require_POST
@keeps_its_form
@customer_view
def proposal_decline_view(request: HtmxHttpRequest, customer: Customer, public_id: uuid.UUID) -> HttpResponse:
    try:
        proposal = proposals.proposal_decline(user=request.user, public_id=public_id, then=_note_decline)
    except (NotFound, InvalidAuthorizationContext):
        return _proposal_missing(request)
    except DomainError as error:
        if error.code == "proposal_expired":
            _push_current(customer, public_id)
        return _proposal_card(request, customer, public_id, error=error)
    push_cards([proposal])
    try:
        return _proposal_card(request, customer, public_id, proposal=proposal)
    except DATABASE_ERRORS as error:  # declined already; a second click says so again
        raise Outage(RESULT_NOT_SHOWN) from error


def _push_current(customer: Customer, public_id: uuid.UUID) -> None:
    """The card as it is stored now, to the conversation's other views (a click found
    it expired). The database failing here only means they learn it on reload."""
    try:
        proposal = proposals.proposal_get(customer=customer, public_id=public_id)
    except DATABASE_ERRORS:
        return
    if proposal is not None:
        push_cards([proposal])


def _note_confirmation(proposal: Proposal, response: JSONObject) -> None:
    confirmation_note(proposal=proposal, response=response)  # with the action, for the model


def _note_decline(proposal: Proposal) -> None:
    decline_note(proposal=proposal)


# An error keeps the card (now showing the proposal's real state) and says why.
# A confirm that could not run (the database was busy, nothing was done) is a 503:
# the card stays clickable, and the customer tries again.
_ERROR_STATUS = {"proposal_expired": 410, "proposal_changed": 409, "temporarily_unavailable": 503}


def _proposal_card(
    request: HtmxHttpRequest,
    customer: Customer,
    public_id: uuid.UUID,
    error: DomainError | None = None,
    proposal: Proposal | None = None,
) -> HttpResponse:
    proposal = proposal or proposals.proposal_get(customer=customer, public_id=public_id)
    if proposal is None:
        return _proposal_missing(request)
    if not request.htmx:
        if error is not None:
            messages.error(request, error.message)
        return HttpResponseRedirect(
            _conversation_url(proposal.conversation, f"proposal-{proposal.public_id}")
        )
    status = 200 if error is None else _ERROR_STATUS.get(error.code, 409)
    return render(
        request,
        "bankbot/chat.html#proposal-card",
        {"proposal": proposal, "error": error.message if error else ""},
        status=status,
    )


def _proposal_missing(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:
        return render(request, "bankbot/chat.html#proposal-missing", status=404)
    raise Http404("proposal not found")
