"""Proposals and confirmations (G3, G4, G5): a write happens only after the customer's click.

``proposal_create`` stores what policy allowed. A click is one transaction
(docs/guarantees.md, "The confirm, in one transaction"): ``proposal_claim``
locks the proposal row and decides what the click does — a ``FirstClick``, a
``Replay`` or ``Refused`` — and ``claim_execute`` carries that out and puts it on
the record: a first click runs the service in a savepoint of the click's
transaction, so a refusal (a domain error) rolls back to it and is stored and
replayed like a success. ``proposal_confirm`` runs the two in one
``transaction.atomic()``, and runs them again with the same key after a
transient database failure.

Fault points (tools/faults.py) on the way: ``before_service``,
``after_service`` (the service's statements ran), ``before_commit``.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from accounts.models import Customer
from errors import Conflict, DomainError, NotFound
from tools.binding import Grant
from tools.catalog import CATALOG, ToolArgs, WriteTool
from tools.context import (
    ActionContext,
    InvalidAuthorizationContext,
    SessionUser,
    action_context_for,
    key_target,
)
from tools.faults import fault_point
from tools.idempotency import (
    TRANSIENT,
    TemporarilyUnavailable,
    idempotency_replay,
    idempotency_store,
)
from tools.json_types import JSONObject
from tools.models import Proposal, ToolCallTrace
from tools.provenance import Source, sources_marked
from tools.trace import trace_entry, trace_record

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Event = ToolCallTrace.Event
Status = Proposal.Status

# A click that meets a transient failure is tried again, whole and with the same
# key, at most this often and only this soon after it began: a quick failure (a
# deadlock victim, a dropped connection) is retried; a database that stays away
# for seconds is reported (the view's 503), not waited on.
MAX_ATTEMPTS = 3
RETRY_WINDOW_SECONDS = 2.0


class ProposalExpired(DomainError):
    code = "proposal_expired"


class ProposalChanged(DomainError):
    code = "proposal_changed"


class ProposalSuperseded(DomainError):
    code = "proposal_superseded"


@dataclass(frozen=True)
class ConfirmOutcome:
    proposal: Proposal
    response: JSONObject
    replayed: bool


def args_digest(tool: str, args: Mapping[str, object]) -> str:
    canonical = json.dumps(
        {"tool": tool, "args": args}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def proposal_create(
    ctx: ActionContext,
    spec: WriteTool,
    args: ToolArgs,
    sources: list[Source],
    *,
    read_from: int = 0,
    proposed_by: User | None = None,
) -> Proposal:
    """Store what policy allowed, with every external text read before it; each is
    marked with why the card shows it, if it does (``sources[read_from:]`` were read
    in this turn: tools/provenance.py, ``shown_because``). ``proposed_by``: the
    support staff member who proposed it (bankbot/staff_proposals.py), else None."""
    canonical = args.model_dump(mode="json")
    target = str(canonical.get(spec.target.kind, ""))
    # The grant this call spends: did the customer's own words name its target?
    grant = spec.grant(ctx, args)
    named = grant is not None and grant.named
    return Proposal.objects.create(
        customer=ctx.customer,
        # The chat's conversation, typed as the key's target (the harness names no more
        # of it than ``ConversationLike``; ``action_context_for`` checked it already).
        conversation=key_target(Proposal.conversation.field, ctx.conversation),
        tool=spec.name,
        args=canonical,
        args_digest=args_digest(spec.name, canonical),
        summary=spec.summary(ctx, args),
        external_sources=sources_marked(sources, target=target, read_from=read_from, named=named),
        expires_at=timezone.now() + timedelta(seconds=settings.BANKBOT_PROPOSAL_TTL_SECONDS),
        proposed_by=proposed_by,
    )


def proposal_said(proposal: Proposal) -> str:
    """The action as the customer reads it, in the active language: its tool's
    wording over the stored arguments. In English, the stored summary (the record's
    words, which also name the card's brand or the transaction's date and reason)."""
    spec = CATALOG.get(proposal.tool)
    english = (translation.get_language() or "en").startswith("en")
    return (
        spec.action_text(proposal.args) if isinstance(spec, WriteTool) and not english else ""
    ) or proposal.summary


def proposals_spending(ctx: ActionContext, *, since: datetime) -> list[Grant]:
    """The grants that proposals made since ``since`` (when the customer's message
    was stored) already used: a retried turn must not propose the same action twice."""
    spent = []
    made = Proposal.objects.filter(
        conversation=key_target(Proposal.conversation.field, ctx.conversation), created_at__gte=since
    ).exclude(status=Proposal.Status.EXPIRED)
    for proposal in made:
        spec = CATALOG.get(proposal.tool)
        if not isinstance(spec, WriteTool):
            continue
        try:
            grant = spec.grant(ctx, spec.args.model_validate(proposal.args))
        except (DomainError, ValueError):
            continue
        if grant is not None:
            spent.append(grant)
    return spent


def proposal_get(*, customer: Customer, public_id: uuid.UUID) -> Proposal | None:
    """The customer's own proposal, or None (someone else's is None too)."""
    return (
        Proposal.objects.select_related("conversation")
        .filter(customer=customer, public_id=_checked(public_id))
        .first()
    )


# --- a click: what it may do --------------------------------------------------


@dataclass(frozen=True)
class FirstClick:
    """The proposal executes now, under ``key``."""

    proposal: Proposal
    ctx: ActionContext
    key: uuid.UUID


@dataclass(frozen=True)
class Replay:
    """Carried out already (or failed for good): the stored response answers."""

    proposal: Proposal
    ctx: ActionContext
    response: JSONObject


@dataclass(frozen=True)
class Refused:
    """Nothing runs. ``error`` is the answer; ``reason_code`` (if not the error's
    own) is what the trace says, where the answer must not."""

    error: DomainError
    proposal: Proposal | None = None
    event: ToolCallTrace.Event = Event.DENIED  # EXPIRED: this click found the proposal expired
    reason_code: str = ""


Claim = FirstClick | Replay | Refused


def proposal_claim(*, user: SessionUser, public_id: uuid.UUID, digest: str, key: uuid.UUID) -> Claim:
    """What a click on the card showing ``digest`` may do. Runs in the click's
    transaction: it locks the proposal row, so a second click waits here until
    the first one has committed, then finds its result."""
    proposal = _locked(public_id)
    if proposal is None:
        return Refused(_not_found())
    try:
        ctx = action_context_for(user, proposal.conversation)
    except InvalidAuthorizationContext:
        # Someone else's proposal answers exactly like a missing one.
        return Refused(_not_found(), proposal, reason_code="not_owner")
    if not digest == proposal.args_digest == args_digest(proposal.tool, proposal.args):
        return Refused(
            ProposalChanged(
                _(
                    "This action changed after it was shown to you, so "
                    "it was not carried out. Ask the assistant to "
                    "prepare it again."
                )
            ),
            proposal,
        )
    if proposal.status in (Status.EXECUTED, Status.FAILED):
        stored = idempotency_replay(
            proposal.confirmation, customer=ctx.customer, fingerprint=_fingerprint(proposal)
        )
        if stored is None:  # past the key's retention: the card still shows the result
            return Refused(
                Conflict(_("This action was carried out already."), code="proposal_not_pending"), proposal
            )
        return Replay(proposal, ctx, stored)
    if proposal.status == Status.DECLINED:
        return Refused(
            Conflict(
                _("You declined this action; ask the assistant again if you changed your mind."),
                code="proposal_declined",
            ),
            proposal,
        )
    if proposal.status == Status.EXPIRED:
        return Refused(_expired(), proposal)
    if proposal.status == Status.SUPERSEDED:
        return Refused(_superseded(), proposal)
    if proposal_state(proposal) == Status.EXPIRED:  # lapsed unseen: now on the record
        proposal.status = Status.EXPIRED
        proposal.save(update_fields=["status"])
        return Refused(_expired(), proposal, event=Event.EXPIRED)
    return FirstClick(proposal, ctx, key)  # its confirmation is written with the result


def claim_execute(
    claim: Claim, *, user: SessionUser, failures: Sequence[BaseException] = ()
) -> ConfirmOutcome | Refused:
    """Carry out the claim and put the click on the record, in the claim's
    transaction. ``failures``: this click's earlier attempts, rolled back."""
    approver = _approver(user)
    proposal = claim.proposal
    key = claim.key if isinstance(claim, FirstClick) else None
    retries = _retry_entries(failures, proposal=proposal, approver=approver, key=key)
    if isinstance(claim, FirstClick):
        if approver is None:  # never: only a signed-in user's click is a first click
            raise InvalidAuthorizationContext()
        return _execute(claim, approver, retries)
    if isinstance(claim, Replay):
        response = _canonical(claim.response)
        ToolCallTrace.objects.bulk_create(
            [
                *retries,
                trace_entry(
                    event=Event.REPLAYED,
                    decision="ok",
                    tool=claim.proposal.tool,
                    ctx=claim.ctx,
                    proposal=claim.proposal,
                    result=response,
                    approver=approver,
                    idempotency_key=claim.proposal.confirmation.idempotency_key,
                ),
            ]
        )
        return ConfirmOutcome(proposal=claim.proposal, response=response, replayed=True)
    ToolCallTrace.objects.bulk_create([*retries, _refusal_entry(claim, approver)])
    return claim


def _execute(claim: FirstClick, approver: User, retries: list[ToolCallTrace]) -> ConfirmOutcome:
    proposal, ctx, key = claim.proposal, claim.ctx, claim.key
    spec = CATALOG[proposal.tool]
    started = time.perf_counter()
    fault_point("before_service")
    args = spec.args.model_validate(proposal.args)
    reason = reason_code = ""  # a refusal's, in English for the record
    try:
        # A savepoint around the run: a refusal rolls back to it, undoing whatever
        # the run wrote before refusing, and the click goes on to store it.
        with transaction.atomic():
            result = spec.run(ctx, args, idempotency_key=key)
        response: dict[str, object] = {"status": "executed", "result": result}
    except DomainError as error:  # an answer too: stored and replayed like a success
        response = {"status": "failed", "error": error.as_dict()}
        reason, reason_code = error.english, error.code
    fault_point("after_service")
    # One key order for every answer: the first click and its replays (read back
    # from the database, whose JSON may reorder keys) return the same bytes.
    canonical = _canonical(response)
    executed = canonical["status"] == "executed"
    proposal.status = Status.EXECUTED if executed else Status.FAILED
    proposal.result, proposal.decided_at = canonical, timezone.now()
    proposal.save(update_fields=["status", "result", "decided_at"])
    idempotency_store(
        proposal=proposal,
        key=key,
        approver=approver,
        fingerprint=_fingerprint(proposal),
        response=canonical,
    )
    # One row says it all: who clicked, the key, the arguments and the outcome.
    ToolCallTrace.objects.bulk_create(
        [
            *retries,
            trace_entry(
                event=Event.EXECUTED if executed else Event.FAILED,
                decision="ok" if executed else "error",
                tool=proposal.tool,
                ctx=ctx,
                proposal=proposal,
                validated_args=proposal.args,
                result=canonical,
                reason_code=reason_code,
                reason=reason,
                idempotency_key=key,
                approver=approver,
                latency_ms=(time.perf_counter() - started) * 1000,
            ),
        ]
    )
    fault_point("before_commit")
    return ConfirmOutcome(proposal=proposal, response=canonical, replayed=False)


def proposal_confirm(
    *,
    user: SessionUser,
    public_id: uuid.UUID,
    digest: str,
    then: Callable[[Proposal, JSONObject], object] | None = None,
) -> ConfirmOutcome:
    """The customer pressed Confirm on the card showing ``digest``.

    Claim and execution commit together or not at all. A transient failure rolls
    everything back (the proposal is pending again) and the click is tried again
    with the same key; when the tries run out, nothing was done, the tries are
    on the record, and the card can be clicked again. ``then(proposal,
    response)``: the caller's own record of a first click (the chat's note to
    the model), written in the same transaction, so it exists exactly when the
    action does.
    """
    key = uuid.uuid4()  # made here, by the server; kept across this click's tries
    failures: list[BaseException] = []
    deadline = time.monotonic() + RETRY_WINDOW_SECONDS
    while True:
        try:
            with transaction.atomic():
                claim = proposal_claim(user=user, public_id=public_id, digest=digest, key=key)
                answer = claim_execute(claim, user=user, failures=failures)
                if then is not None and isinstance(answer, ConfirmOutcome) and not answer.replayed:
                    then(answer.proposal, answer.response)
            break
        except TRANSIENT as error:
            failures.append(error)
            quick = time.monotonic() < deadline
            if quick and len(failures) < MAX_ATTEMPTS:
                continue
            if not quick:
                raise  # the database is slow or away: the view's 503 says nothing was done
            _record_giving_up(public_id, user, key, failures)
            raise TemporarilyUnavailable(
                _(
                    "The bank could not finish this just now. Nothing was done; "
                    "press Confirm again in a moment."
                )
            ) from error
    if isinstance(answer, Refused):
        raise answer.error
    return answer


# --- decline ------------------------------------------------------------------


@dataclass(frozen=True)
class Declined:
    proposal: Proposal
    replayed: bool  # an earlier click declined it; this one answers the same


def proposal_decline(
    *, user: SessionUser, public_id: uuid.UUID, then: Callable[[Proposal], object] | None = None
) -> Proposal:
    """The customer pressed Decline: one transaction, on the record like a confirm.
    ``then(proposal)``: the caller's record of the decline, in the same
    transaction; a second decline does not repeat it."""
    with transaction.atomic():
        answer = _decline(_locked(public_id), user)
        approver = _approver(user)
        if isinstance(answer, Refused):
            _refusal_entry(answer, approver).save()
        else:
            proposal = answer.proposal
            trace_record(
                event=Event.REPLAYED if answer.replayed else Event.DECLINED,
                decision="deny",
                tool=proposal.tool,
                proposal=proposal,
                validated_args=proposal.args,
                approver=approver,
                reason_code="declined",
                reason="The customer declined.",
            )
            if then is not None and not answer.replayed:
                then(proposal)
    if isinstance(answer, Refused):
        raise answer.error
    return answer.proposal


def _decline(proposal: Proposal | None, user: SessionUser) -> Declined | Refused:
    if proposal is None:
        return Refused(_not_found())
    try:
        action_context_for(user, proposal.conversation)
    except InvalidAuthorizationContext:
        return Refused(_not_found(), proposal, reason_code="not_owner")
    if proposal.status == Status.DECLINED:
        return Declined(proposal, replayed=True)
    if proposal.status == Status.EXPIRED:
        return Refused(_expired(), proposal)
    if proposal.status == Status.SUPERSEDED:
        return Refused(_superseded(), proposal)
    if proposal.status != Status.PENDING:
        return Refused(
            Conflict(
                _("You confirmed this action already; it cannot be declined."), code="proposal_not_pending"
            ),
            proposal,
        )
    if proposal_state(proposal) == Status.EXPIRED:  # lapsed unseen: now on the record
        proposal.status = Status.EXPIRED
        proposal.save(update_fields=["status"])
        return Refused(_expired(), proposal, event=Event.EXPIRED)
    proposal.status, proposal.decided_at = Status.DECLINED, timezone.now()
    proposal.save(update_fields=["status", "decided_at"])
    return Declined(proposal, replayed=False)


def proposal_state(proposal: Proposal, *, now: datetime | None = None) -> str:
    """The proposal's state as everyone sees it — the click, the decline, the card: its
    status, except that a pending proposal past its time is expired, whether or not a
    click has yet written that down. The one place a proposal's expiry is decided."""
    if proposal.status == Status.PENDING and proposal.expires_at <= (now or timezone.now()):
        return Status.EXPIRED
    return str(proposal.status)


def proposal_supersede_older(proposal: Proposal) -> list[Proposal]:
    """A new proposal replaces the conversation's pending ones of the same action on
    the same target (another reason for the same dispute, the same card asked again):
    those are superseded, so only the newest card can be confirmed. Returns them."""
    spec = CATALOG.get(proposal.tool)
    if not isinstance(spec, WriteTool):
        return []
    target = spec.target.kind
    with transaction.atomic():
        older = list(
            Proposal.objects.select_for_update()
            .filter(
                conversation_id=proposal.conversation_id,
                tool=proposal.tool,
                status=Status.PENDING,
                id__lt=proposal.pk,
                **{f"args__{target}": proposal.args.get(target)},
            )
            .select_related("conversation")
        )
        now = timezone.now()
        for replaced in older:
            replaced.status, replaced.decided_at = Status.SUPERSEDED, now
        Proposal.objects.bulk_update(older, ["status", "decided_at"])
        # On the record like every decision on a proposal (G9): which card replaced it.
        ToolCallTrace.objects.bulk_create(
            [
                trace_entry(
                    event=Event.SUPERSEDED,
                    decision="deny",
                    tool=replaced.tool,
                    proposal=replaced,
                    reason_code="superseded",
                    reason=f"Replaced by the newer proposal {proposal.public_id} of the same action.",
                )
                for replaced in older
            ]
        )
    return older


# --- helpers ------------------------------------------------------------------


def _checked(public_id: uuid.UUID) -> uuid.UUID:
    """A proposal's id is parsed where it arrives (a URL's ``<uuid:…>``, the caller's
    own parse of a string): here it is a UUID, or a caller is wrong."""
    if not isinstance(public_id, uuid.UUID):
        raise TypeError(f"a proposal's public_id is a uuid.UUID, not {type(public_id).__name__}")
    return public_id


def _locked(public_id: uuid.UUID) -> Proposal | None:
    """The proposal, locked until the click's transaction ends (on SQLite the
    IMMEDIATE transaction already holds the database's write lock). Its
    confirmation is read after the lock, not joined here: on PostgreSQL a row
    lock that waited re-reads the locked row, but a joined row would come from
    before the wait."""
    proposal = (
        Proposal.objects.select_related("conversation", "customer")
        .select_for_update(of=("self",))
        .filter(public_id=_checked(public_id))
        .first()
    )
    if proposal is not None and proposal.conversation.customer_id == proposal.customer_id:
        proposal.conversation.customer = proposal.customer  # one row, read once
    return proposal


def _not_found() -> NotFound:
    return NotFound(_("This confirmation was not found."), code="proposal_not_found")


def _superseded() -> ProposalSuperseded:
    return ProposalSuperseded(
        _("A newer request replaced this action, so it was not carried out. Use the newer card.")
    )


def _expired() -> ProposalExpired:
    return ProposalExpired(_("This confirmation has expired; ask the assistant again."))


def _approver(user: SessionUser) -> User | None:
    """Who clicked, for the trace: a signed-in user, or nobody."""
    return user if isinstance(user, get_user_model()) and user.pk else None


def _fingerprint(proposal: Proposal) -> str:
    return f"{proposal.tool}:{proposal.args_digest}"


def _canonical(response: Mapping[str, object]) -> JSONObject:
    canonical: JSONObject = json.loads(json.dumps(response, sort_keys=True))
    return canonical


def _refusal_entry(refused: Refused, approver: User | None) -> ToolCallTrace:
    """The trace row of a refused click, not yet written. Someone else's proposal is
    recorded against its owner's row with the clicker as approver; the answer stays
    "not found"."""
    proposal = refused.proposal
    code = refused.reason_code or refused.error.code
    reason = (
        "Someone other than the owner clicked; answered as not found."
        if code == "not_owner"
        else refused.error.english
    )
    return trace_entry(
        event=refused.event,
        decision="deny",
        tool=proposal.tool if proposal else "",
        proposal=proposal,
        approver=approver,
        reason_code=code,
        reason=reason,
    )


def _retry_entries(
    failures: Sequence[BaseException],
    *,
    proposal: Proposal | None,
    approver: User | None,
    key: uuid.UUID | None,
    gave_up: bool = False,
) -> list[ToolCallTrace]:
    """One row per attempt that failed and was rolled back."""
    rows = []
    for attempt, error in enumerate(failures, 1):
        last = gave_up and attempt == len(failures)
        then = (
            "nothing was done; the card can be confirmed again" if last else "trying again with the same key"
        )
        rows.append(
            trace_entry(
                event=Event.FAILED,
                decision="error" if last else "retry",
                tool=proposal.tool if proposal else "",
                proposal=proposal,
                approver=approver,
                reason_code="temporarily_unavailable" if last else "transient",
                reason=f"Attempt {attempt} failed ({type(error).__name__}); {then}.",
                idempotency_key=key,
            )
        )
    return rows


def _record_giving_up(
    public_id: uuid.UUID, user: SessionUser, key: uuid.UUID, failures: list[BaseException]
) -> None:
    """Every try failed quickly and was rolled back: put the tries on the record."""
    with transaction.atomic():
        proposal = (
            Proposal.objects.select_related("customer", "conversation").filter(public_id=public_id).first()
        )
        ToolCallTrace.objects.bulk_create(
            _retry_entries(failures, proposal=proposal, approver=_approver(user), key=key, gave_up=True)
        )
