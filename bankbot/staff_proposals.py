"""Support staff may propose a write to the customer; only the customer's click executes it.

While staff take over a customer's conversation, they cannot act for the customer: a
block, an unblock or a dispute is theirs to *propose* only. ``propose_for_customer`` is
the seam the staff page calls. It checks the call as the harness checks the model's —
the tool's Pydantic arguments (unknown fields refused), a write tool only, its business
rules, a target that is the conversation customer's own card or transaction (named by
its digits or its reference) — and stores the same proposal the harness makes: bound to
its exact arguments, with an expiry, executed only through the unchanged confirm
(``tools.proposals.proposal_confirm``: the session's customer must own the
conversation, one idempotency key per confirmation). It records who proposed it
(``Proposal.proposed_by``; every trace row of it names the proposer beside the
approver), keeps a note in the conversation so a reload shows the card, and pushes the
card, labelled "Proposed by Aigerim from support", to every open view of the
conversation once committed.

The mandate rule — a write the customer did not ask for is never proposed — binds the
*model*, whose words may have been planted. A staff proposal is a person's, labelled as
such, so it needs no request of the customer's; it still needs the customer's click.
A refusal is ``StaffProposalRefused``, in the staff member's language, and on the
record (a ``denied`` trace row naming the proposer).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from pydantic import ValidationError

from bankbot import outage
from bankbot.chat import STAFF_PROPOSAL, StaffProposalPayload, message_add, staff_proposal_of
from bankbot.fragments import group_name
from bankbot.handover import staff_name
from bankbot.models import Conversation, Message
from errors import DomainError, NotFound
from tools.catalog import CATALOG, ReadTool, ToolArgs, WriteTool
from tools.context import ActionContext, InvalidAuthorizationContext, action_context_for
from tools.json_types import JSONValue
from tools.models import Proposal, ToolCallTrace
from tools.proposals import proposal_create
from tools.trace import trace_record

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)

Event = ToolCallTrace.Event

# Why a target that is not the customer's is refused: the same sentence for one that
# does not exist, so staff learn nothing of other customers' cards from it.
NOT_THEIRS = {
    "card": _("The customer has no card ending in %(target)s. Only their own cards can be named."),
    "transaction": _(
        "The customer has no transaction %(target)s. Only their own transactions can be named, by reference."
    ),
}


class StaffProposalRefused(DomainError):
    """Staff's proposal was not made: the message says why, in the staff member's
    language. Nothing was stored but the refusal's trace row."""

    code = "staff_proposal_refused"


def propose_for_customer(
    *, conversation: Conversation, staff: User, tool: str, arguments: Mapping[str, JSONValue]
) -> Proposal:
    """Propose ``tool`` with ``arguments`` to the customer of ``conversation``, as
    ``staff``. Returns the pending proposal; its card reaches every open view of the
    conversation once this commits. Raises ``StaffProposalRefused``."""
    try:
        with transaction.atomic():
            proposal, note = _propose(conversation, staff, tool, arguments)
            transaction.on_commit(lambda: push_staff_card(proposal, note))
    except StaffProposalRefused as refusal:
        _record_refusal(conversation, staff, tool, arguments, refusal)
        raise
    return proposal


def _propose(
    conversation: Conversation, staff: User, tool: str, arguments: Mapping[str, JSONValue]
) -> tuple[Proposal, Message]:
    _check_staff(staff, conversation)
    ctx = _customer_context(conversation)
    spec, args = _parsed(tool, arguments)
    _check_target(ctx, spec, args)
    proposal = proposal_create(ctx, spec, args, [], proposed_by=staff)
    name = staff_name(staff)
    trace_record(
        event=Event.PROPOSED,
        decision="allow",
        tool=spec.name,
        ctx=ctx,
        proposal=proposal,
        raw_args=_raw(arguments),
        validated_args=proposal.args,
        reason_code="staff_proposal",
        reason=f"Proposed by support staff member {name} ({staff.get_username()}); "
        "only the customer's click carries it out.",
        result={"proposal": proposal.reference, "summary": proposal.summary, "proposed_by": name},
        proposer=staff,
    )
    # In the conversation, so a reload shows the card where it was proposed; the model
    # reads it as a note from the bank, not as the customer's request.
    note = message_add(
        conversation=conversation,
        role=Message.Role.SYSTEM,
        text=(
            f"Bank note, not from the customer: support staff member {name} proposed "
            f"“{proposal.summary}” ({proposal.reference}) to the customer. It is shown to them as a "
            "card labelled with the staff member's name; nothing has happened yet, and only the "
            "customer's click can carry it out."
        ),
        payload=StaffProposalPayload(kind=STAFF_PROPOSAL, proposal=proposal.reference, staff=name),
    )
    return proposal, note


def _check_staff(staff: object, conversation: object) -> None:
    """Only an active staff user proposes, and never in their own conversation as a
    customer (there they would be proposing to themselves)."""
    if not (
        isinstance(staff, get_user_model())
        and staff.is_authenticated
        and staff.is_active
        and getattr(staff, "is_staff", False)
    ):
        raise StaffProposalRefused(
            _("Only active support staff can propose an action to a customer."), code="not_staff"
        )
    if not isinstance(conversation, Conversation):
        raise StaffProposalRefused(_("This conversation was not found."), code="conversation_not_found")
    if conversation.customer.user_id == staff.pk:
        raise StaffProposalRefused(
            _("This is your own conversation as a customer: staff cannot propose an action in it."),
            code="own_conversation",
        )


def _customer_context(conversation: Conversation) -> ActionContext:
    """The customer's own context, as their session would build it: the proposal is
    theirs, to confirm or decline. A customer who cannot sign in could never click."""
    try:
        return action_context_for(conversation.customer.user, conversation)
    except InvalidAuthorizationContext:
        raise StaffProposalRefused(
            _("This customer cannot sign in now, so they could not confirm it. Nothing was proposed."),
            code="customer_inactive",
        ) from None


def _parsed(tool: str, arguments: Mapping[str, JSONValue]) -> tuple[WriteTool, ToolArgs]:
    """The write tool and its validated arguments, as the harness validates the model's."""
    writes = ", ".join(spec.name for spec in CATALOG.writes())
    spec = CATALOG.get(tool) if isinstance(tool, str) else None
    if spec is None:
        raise StaffProposalRefused(
            _("There is no action called “%(tool)s”. Staff can propose: %(writes)s."),
            code="unknown_tool",
            tool=str(tool)[:60],
            writes=writes,
        )
    if isinstance(spec, ReadTool):
        raise StaffProposalRefused(
            _(
                "“%(tool)s” only reads the customer's data: there is nothing for them to confirm. "
                "Staff can propose: %(writes)s."
            ),
            code="read_tool",
            tool=spec.name,
            writes=writes,
        )
    if not isinstance(arguments, Mapping):
        raise StaffProposalRefused(
            _("The details of %(tool)s are not valid: they must be named fields."),
            code="invalid_arguments",
            tool=spec.name,
        )
    try:
        return spec, spec.args.model_validate(dict(arguments))
    except ValidationError as error:
        fields = sorted({".".join(str(p) for p in item["loc"]) or "—" for item in error.errors()})
        raise StaffProposalRefused(
            _("The details of %(tool)s are not valid (%(fields)s). Check them and try again."),
            code="invalid_arguments",
            tool=spec.name,
            fields=", ".join(fields),
        ) from None


def _check_target(ctx: ActionContext, spec: WriteTool, args: ToolArgs) -> None:
    """The tool's business rules on the customer's own object (the harness's
    ``check``): a card or transaction that is not theirs is refused like a missing
    one; a rule's refusal (already blocked, past the dispute window, a dispute open)
    keeps its own words."""
    if not ctx.has_scopes(spec.scopes):  # the customer's scopes hold every write's
        raise StaffProposalRefused(
            _("The customer may not use %(tool)s."), code="missing_scope", tool=spec.name
        )
    target = str(args.model_dump(mode="json").get(spec.target.kind, ""))
    try:
        spec.check(ctx, args)
    except NotFound:
        raise StaffProposalRefused(
            NOT_THEIRS.get(spec.target.kind, _("The customer has no %(target)s.")),
            code="target_not_found",
            target=target,
        ) from None
    except DomainError as error:
        raise StaffProposalRefused(error.template, code=error.code, **error.params) from None


def _raw(arguments: object) -> str:
    try:
        return json.dumps(arguments, ensure_ascii=False, default=str)[:4000]
    except (TypeError, ValueError):
        return repr(arguments)[:4000]


def _record_refusal(
    conversation: object, staff: object, tool: object, arguments: object, refusal: StaffProposalRefused
) -> None:
    """A refused staff proposal is on the record like a refused model call (G9)."""
    found = conversation if isinstance(conversation, Conversation) else None
    trace_record(
        event=Event.DENIED,
        decision="deny",
        tool=str(tool)[:50],
        customer=found.customer if found is not None else None,
        conversation=found,
        raw_args=_raw(arguments),
        reason_code=refusal.code,
        reason=f"A staff proposal was refused: {refusal.english}",
        proposer=staff if isinstance(staff, get_user_model()) and staff.pk else None,
    )


# --- the card, live ---------------------------------------------------------------


def render_staff_card(proposal: Proposal, note: Message) -> dict[str, str]:
    """The card, appended to the conversation's messages, in each of the site's
    languages (each socket picks its own). Its forms post with the page's CSRF
    header (base.html's ``hx-headers``), as a card streamed in a turn does."""
    item = {"kind": "staff_proposal", "message": note, "proposal": proposal}
    html: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            html[code] = render_to_string(
                "bankbot/stream.html#staff-proposal",
                {"item": item, "conversation": proposal.conversation},
            )
    return html


def staff_cards_since(conversation: Conversation, since: datetime | None, language: str) -> str:
    """For a socket that connects again (its push may have gone while it was away): the
    conversation's staff cards proposed since its page was rendered, at most a
    proposal's lifetime ago, in ``language`` — each first removed where the page has it
    already (``hx-swap-oob="delete"``), then appended, so it shows once. None: a first
    connect, whose page shows them already."""
    if since is None:
        return ""
    since = max(since, timezone.now() - timedelta(seconds=settings.BANKBOT_PROPOSAL_TTL_SECONDS))
    made = (
        conversation.proposals.filter(proposed_by__isnull=False, created_at__gte=since)
        .select_related("conversation", "customer", "proposed_by")
        .order_by("created_at", "pk")
    )
    notes = {
        str((note.payload or {}).get("proposal")): note
        for note in conversation.messages.filter(role=Message.Role.SYSTEM, created_at__gte=since)
        if staff_proposal_of(note) is not None
    }
    html = []
    with translation.override(language):
        for proposal in made:
            if (note := notes.get(proposal.reference)) is not None:
                item = {"kind": "staff_proposal", "message": note, "proposal": proposal}
                html.append(
                    render_to_string(
                        "bankbot/stream.html#staff-proposal",
                        {"item": item, "conversation": conversation, "again": True},
                    )
                )
    return "".join(html)


def push_staff_card(proposal: Proposal, note: Message) -> None:
    """To every open view of the conversation (its group, which only the owner's
    sockets join). The proposal is stored already: a layer or a database that fails
    here only means the card shows on reload."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        html = render_staff_card(proposal, note)
    except outage.DATABASE_ERRORS:
        log.warning("staff proposal: the database failed rendering the card", exc_info=True)
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(proposal.conversation),
            {"type": "chat.fragment", "html": html[settings.LANGUAGE_CODE], "html_by_language": html},
        )
    except outage.LAYER_ERRORS:
        log.warning("staff proposal: the channel layer is down; the card shows on reload", exc_info=True)
