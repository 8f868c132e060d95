"""Proposals and confirmations (G3, G4): a write happens only after the customer's click.

``proposal_create`` stores what policy allowed. ``proposal_confirm`` claims it
atomically (owner only, pending, not expired, digest unchanged), makes the
confirmation with a fresh server-side UUID4 idempotency key, and runs the tool
through ``idempotent_run``. ``proposal_decline`` records a "no".
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.errors import Conflict, DomainError, NotFound
from tools.context import ActionContext, action_context_for
from tools.faults import fault_point
from tools.idempotency import (
    TemporarilyUnavailable,
    idempotency_begin,
    idempotency_take_new,
    idempotent_run,
)
from tools.models import Confirmation, Proposal
from tools.provenance import Source
from tools.specs import REGISTRY, ToolArgs, ToolSpec
from tools.trace import trace_record

# How long a second click waits for the first one's result before answering
# "in progress". Short: it only smooths over a double click.
CONFIRM_WAIT_SECONDS = 5.0
# A confirmation whose executor died leaves the proposal "confirmed"; after
# this long a retry may take it over (the idempotency key keeps it single).
STALE_EXECUTION = timedelta(seconds=30)


class ProposalExpired(DomainError):
    code = "proposal_expired"


class ProposalChanged(DomainError):
    code = "proposal_changed"


@dataclass(frozen=True)
class ConfirmOutcome:
    proposal: Proposal
    response: dict[str, Any]
    replayed: bool


def args_digest(tool: str, args: dict[str, Any]) -> str:
    canonical = json.dumps({"tool": tool, "args": args}, sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def proposal_create(
    ctx: ActionContext, spec: ToolSpec, args: ToolArgs, sources: list[Source]
) -> Proposal:
    assert spec.summary is not None
    canonical = args.model_dump(mode="json")
    return Proposal.objects.create(
        customer=ctx.customer,
        conversation=ctx.conversation,
        tool=spec.name,
        args=canonical,
        args_digest=args_digest(spec.name, canonical),
        summary=spec.summary(ctx, args),
        external_sources=[s.as_dict() for s in sources],
        expires_at=timezone.now() + timedelta(seconds=settings.BANKBOT_PROPOSAL_TTL_SECONDS),
    )


def proposals_spending(ctx: ActionContext, *, since: Any) -> list[Any]:
    """The grants that proposals made since ``since`` (the customer's message)
    already used: a retried turn must not propose the same action twice."""
    spent = []
    made = Proposal.objects.filter(conversation=ctx.conversation, created_at__gte=since.created_at
                                   ).exclude(status=Proposal.Status.EXPIRED)
    for proposal in made:
        spec = REGISTRY.get(proposal.tool)
        if spec is None or spec.grant is None:
            continue
        try:
            grant = spec.grant(ctx, spec.args.model_validate(proposal.args))
        except (DomainError, ValueError):
            continue
        if grant is not None:
            spent.append(grant)
    return spent


def proposal_get(*, customer: Any, public_id: Any) -> Proposal | None:
    """The customer's own proposal, or None (someone else's is None too)."""
    try:
        pid = uuid.UUID(str(public_id))
    except ValueError:
        return None
    return (Proposal.objects.select_related("conversation")
            .filter(customer=customer, public_id=pid).first())


def _not_found() -> NotFound:
    # Someone else's proposal answers exactly like a missing one.
    return NotFound("This confirmation was not found.", code="proposal_not_found")


def _proposal_for(user: Any, public_id: Any, *, lock: bool = False
                  ) -> tuple[Proposal, ActionContext]:
    try:
        pid = uuid.UUID(str(public_id))
    except ValueError:
        raise _not_found() from None
    rows = Proposal.objects.select_related("conversation__customer", "customer")
    if lock:
        rows = rows.select_for_update(of=("self",))
    proposal = rows.filter(
        public_id=pid, customer__user=user if getattr(user, "pk", None) else None).first()
    if proposal is None:
        raise _not_found()
    # Raises InvalidAuthorizationContext for anything but the owner's session.
    return proposal, action_context_for(user, proposal.conversation)


def _canonical(response: dict[str, Any] | None) -> dict[str, Any]:
    """One key order for every answer: the first click and its replays (read back
    from the database, whose JSON may reorder keys) return the same bytes."""
    return json.loads(json.dumps(response or {}, sort_keys=True))


def proposal_confirm(
    *, user: Any, public_id: Any, digest: str, wait_seconds: float = CONFIRM_WAIT_SECONDS
) -> ConfirmOutcome:
    """The customer pressed Confirm on the card showing ``digest``."""
    now = timezone.now()
    stored: dict[str, Any] | None = None
    with transaction.atomic():
        # Locked, so that what executes is exactly what was shown, once.
        proposal, ctx = _proposal_for(user, public_id, lock=True)
        unchanged = args_digest(proposal.tool, proposal.args) == proposal.args_digest == digest
        was = proposal.status
        claimed = unchanged and _claim(proposal, now)
        if unchanged and not claimed and proposal.status == Proposal.Status.PENDING:
            proposal.status = Proposal.Status.EXPIRED
            proposal.save(update_fields=["status"])
            trace_record(event="expired", decision="deny", tool=proposal.tool, ctx=ctx,
                         proposal=proposal, reason_code="proposal_expired",
                         reason="Confirmed after the proposal expired.")
        if claimed and was == Proposal.Status.PENDING:
            # A first click: a fresh key, taken in the claim's transaction, so a
            # claimed proposal never lacks its idempotency record.
            confirmation = Confirmation.objects.create(
                proposal=proposal, idempotency_key=uuid.uuid4(), approver=user
            )
            trace_record(event="confirmed", decision="allow", tool=proposal.tool, ctx=ctx,
                         proposal=proposal, validated_args=proposal.args, approver=user,
                         idempotency_key=confirmation.idempotency_key)
            idempotency_take_new(key=confirmation.idempotency_key, customer=ctx.customer,
                                 fingerprint=_fingerprint(proposal))
        elif claimed:
            # A retry after a transient failure, or a takeover from a dead worker:
            # the same key as before.
            stored = idempotency_begin(key=proposal.confirmation.idempotency_key,
                                       customer=ctx.customer, fingerprint=_fingerprint(proposal))
    if not unchanged:
        _check_digest(proposal, digest, ctx)  # traces the refusal (outside the rollback), raises
    if proposal.status == Proposal.Status.EXPIRED:
        raise ProposalExpired("This confirmation has expired; ask the assistant again.")
    if proposal.status == Proposal.Status.DECLINED:
        raise Conflict("You declined this action; ask the assistant again if you changed "
                       "your mind.", code="proposal_declined")
    if claimed:
        return _execute(proposal, ctx, user, stored)
    return _await_result(proposal, wait_seconds)


def _check_digest(proposal: Proposal, digest: str, ctx: ActionContext) -> None:
    """The click is bound to the exact parameters shown (G4). Raised outside any
    transaction so that the trace row of the refusal is kept."""
    recomputed = args_digest(proposal.tool, proposal.args)
    if digest != proposal.args_digest or recomputed != proposal.args_digest:
        trace_record(event="denied", decision="deny", tool=proposal.tool, ctx=ctx,
                     proposal=proposal, reason_code="proposal_changed",
                     reason="The digest confirmed does not match the stored proposal.")
        raise ProposalChanged("This action changed after it was shown to you, so it was not "
                              "carried out. Ask the assistant to prepare it again.")


def _claim(proposal: Proposal, now: Any) -> bool:
    """Move the proposal to CONFIRMED if this click may execute it."""
    status = Proposal.Status
    claimable = (
        (proposal.status == status.PENDING and proposal.expires_at > now)
        or (proposal.status == status.FAILED and proposal.retryable)
        or (proposal.status == status.CONFIRMED and proposal.decided_at is not None
            and proposal.decided_at < now - STALE_EXECUTION)
    )
    if not claimable:
        return False
    changed = Proposal.objects.filter(pk=proposal.pk, status=proposal.status).update(
        status=status.CONFIRMED, decided_at=now, retryable=False
    )
    if changed:
        proposal.status, proposal.decided_at, proposal.retryable = status.CONFIRMED, now, False
    return bool(changed)


def _fingerprint(proposal: Proposal) -> str:
    return f"{proposal.tool}:{proposal.args_digest}"


def _execute(proposal: Proposal, ctx: ActionContext, user: Any,
             stored: dict[str, Any] | None) -> ConfirmOutcome:
    """Run the claimed proposal's tool with the confirmation's key. ``stored``: the
    key had already completed (a takeover after a worker died before recording
    the result), so the stored response is the answer."""
    spec = REGISTRY[proposal.tool]
    args = spec.args.model_validate(proposal.args)
    key = proposal.confirmation.idempotency_key
    started = time.perf_counter()

    def run() -> dict[str, Any]:
        result = spec.run(ctx, args, idempotency_key=key)
        fault_point("after_service")  # tests: the service committed, its answer is lost
        return result

    def on_retry(attempt: int, error: BaseException) -> None:
        trace_record(event="failed", decision="retry", tool=proposal.tool, ctx=ctx,
                     proposal=proposal, reason_code="transient",
                     reason=f"Attempt {attempt} failed ({type(error).__name__}); "
                            "retrying with the same key.", idempotency_key=key)

    def finish(response: dict[str, Any], replayed: bool) -> None:
        """Store the result on the proposal and trace it (in the caller's transaction)."""
        response = _canonical(response)
        executed = response["status"] == "executed"
        proposal.status = Proposal.Status.EXECUTED if executed else Proposal.Status.FAILED
        proposal.result, proposal.retryable = response, bool(response.get("retryable"))
        Proposal.objects.filter(pk=proposal.pk).update(
            status=proposal.status, result=proposal.result, retryable=proposal.retryable)
        error = response.get("error", {})
        trace_record(event="replayed" if replayed else ("executed" if executed else "failed"),
                     decision="ok" if executed else "error", tool=proposal.tool, ctx=ctx,
                     proposal=proposal, validated_args=proposal.args, result=proposal.result,
                     reason_code=error.get("code", ""), reason=error.get("message", ""),
                     idempotency_key=key, approver=user,
                     latency_ms=(time.perf_counter() - started) * 1000)

    replayed = stored is not None
    if stored is not None:
        with transaction.atomic():
            finish(stored, True)
    else:
        try:
            idempotent_run(key=key, customer=ctx.customer, fingerprint=_fingerprint(proposal),
                           run=run, on_retry=on_retry, begun=True,
                           on_complete=lambda response: finish(response, False))
        except TemporarilyUnavailable as error:
            with transaction.atomic():
                finish({"status": "failed", "error": error.as_dict(), "retryable": True}, False)
    return ConfirmOutcome(proposal=proposal, response=proposal.result, replayed=replayed)


def _await_result(proposal: Proposal, wait_seconds: float) -> ConfirmOutcome:
    """A second click: answer with the first click's stored result (G5)."""
    deadline = time.monotonic() + wait_seconds
    while True:
        proposal.refresh_from_db()
        if proposal.status in (Proposal.Status.EXECUTED, Proposal.Status.FAILED):
            trace_record(event="replayed", decision="ok", tool=proposal.tool,
                         proposal=proposal, result=proposal.result,
                         idempotency_key=proposal.confirmation.idempotency_key)
            return ConfirmOutcome(proposal=proposal, response=_canonical(proposal.result),
                                  replayed=True)
        if time.monotonic() >= deadline:
            raise Conflict("This action is already being carried out; wait a moment.",
                           code="in_progress")
        time.sleep(0.05)


def proposal_decline(*, user: Any, public_id: Any) -> Proposal:
    proposal, ctx = _proposal_for(user, public_id)
    changed = Proposal.objects.filter(pk=proposal.pk, status=Proposal.Status.PENDING).update(
        status=Proposal.Status.DECLINED, decided_at=timezone.now()
    )
    proposal.refresh_from_db()
    if not changed and proposal.status != Proposal.Status.DECLINED:
        raise Conflict(f"This action is already {proposal.get_status_display().lower()}.",
                       code="proposal_not_pending")
    if changed:
        trace_record(event="declined", decision="deny", tool=proposal.tool, ctx=ctx,
                     proposal=proposal, validated_args=proposal.args, approver=user,
                     reason_code="declined", reason="The customer declined.")
    return proposal
