"""Opening and reviewing disputes. One service per state change; every caller goes through it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import Customer, Transaction
from accounts.money import kzt_text, to_amount
from accounts.selectors import transaction_get
from accounts.services import KEY_REQUIRED, MAX_NOTE_LENGTH, note_clean, staff_check
from disputes.models import Dispute, DisputeReview
from disputes.signals import dispute_moved
from errors import Conflict, InvalidInput, RuleViolation

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# An amount in a sentence, written the way the sentence's language writes it.
_kzt = lazy(kzt_text, str)

# The first dispute is D-881, the public reference DESIGN.md uses as its example.
REFERENCE_OFFSET = 880


@dataclass(frozen=True)
class DisputeResult:
    dispute: Dispute
    replayed: bool  # True when the idempotency key had already opened this dispute

    def as_dict(self) -> dict[str, str]:
        return dispute_as_dict(self.dispute)


def dispute_as_dict(dispute: Dispute) -> dict[str, str]:
    return {
        "dispute_id": str(dispute.reference),
        "status": str(dispute.status),
        "amount_kzt": f"{dispute.amount:.2f}",
        "transaction": dispute.transaction.reference,
    }


def dispute_window_open(posted_on: date) -> bool:
    """Whether a transaction posted on that (local) day may still be disputed all day
    today: on the window's last day a dispute is refused from the hour it was posted,
    so that day counts as closed."""
    return posted_on > timezone.localdate() - timedelta(days=settings.BANKBOT_DISPUTE_WINDOW_DAYS)


def dispute_check(*, transaction: Transaction, amount: Decimal) -> None:
    """The business rules for opening a dispute, shared by the harness's policy
    (to refuse before proposing) and by dispute_open (to refuse at execution)."""
    window = timedelta(days=settings.BANKBOT_DISPUTE_WINDOW_DAYS)
    if transaction.posted_at < timezone.now() - window:
        raise RuleViolation(
            _(
                "Transaction %(reference)s was posted on %(posted)s, more than %(days)s days "
                "ago; disputes are not accepted after %(days)s days."
            ),
            code="dispute_window_closed",
            reference=transaction.reference,
            posted=f"{timezone.localdate(transaction.posted_at):%Y-%m-%d}",
            days=window.days,
        )
    if amount > transaction.amount:
        raise RuleViolation(
            _("The disputed amount %(amount)s is more than the transaction's %(total)s."),
            code="amount_exceeds_transaction",
            amount=_kzt(amount),
            total=_kzt(transaction.amount),
        )
    open_dispute = transaction.disputes.filter(status__in=Dispute.OPEN_STATUSES).first()
    if open_dispute is not None:
        raise Conflict(
            _(
                "Transaction %(reference)s already has an open dispute, %(dispute)s; you will "
                "hear about it there."
            ),
            code="dispute_already_open",
            reference=transaction.reference,
            dispute=open_dispute.reference,
        )


def dispute_open(
    *,
    customer: Customer,
    transaction_reference: str,
    amount: object,
    reason: str,
    idempotency_key: uuid.UUID,
) -> DisputeResult:
    """Open a dispute about one of the customer's transactions.

    The idempotency key is the confirmation's: a second call with the same key
    and the same parameters returns the first dispute (replayed); with other
    parameters it is an error. The database's unique constraints keep both
    promises across workers.
    """
    if not isinstance(idempotency_key, uuid.UUID):
        raise InvalidInput(KEY_REQUIRED, code="missing_idempotency_key")
    parsed_amount = to_amount(amount)
    if reason not in Dispute.Reason.values:
        raise InvalidInput(
            _("The reason must be one of: %(reasons)s."),
            code="invalid_reason",
            reasons=", ".join(Dispute.Reason.values),
        )

    with transaction.atomic():
        replay = _dispute_for_key(customer, idempotency_key, transaction_reference, parsed_amount, reason)
        if replay is not None:
            return replay
        txn = transaction_get(customer=customer, reference=transaction_reference)
        try:
            dispute_check(transaction=txn, amount=parsed_amount)
        except Conflict:
            # Under READ COMMITTED (PostgreSQL) a retry with this very key may have
            # committed between the first look and the check: that is a replay.
            replay = _dispute_for_key(customer, idempotency_key, transaction_reference, parsed_amount, reason)
            if replay is not None:
                return replay
            raise
        try:
            with transaction.atomic():  # a savepoint: a lost race must not poison the outer one
                dispute = Dispute.objects.create(
                    customer=customer,
                    transaction=txn,
                    amount=parsed_amount,
                    reason=reason,
                    idempotency_key=idempotency_key,
                )
        except IntegrityError:
            # Another worker won the race: either with this very key (a retry)
            # or with another confirmation for the same transaction.
            replay = _dispute_for_key(customer, idempotency_key, transaction_reference, parsed_amount, reason)
            if replay is not None:
                return replay
            dispute_check(transaction=txn, amount=parsed_amount)
            raise
        dispute.reference = f"D-{REFERENCE_OFFSET + dispute.pk}"
        dispute.save(update_fields=["reference"])
        return DisputeResult(dispute=dispute, replayed=False)


def _dispute_for_key(
    customer: Customer, key: uuid.UUID, reference: str, amount: Decimal, reason: str
) -> DisputeResult | None:
    existing = Dispute.objects.select_related("transaction").filter(idempotency_key=key).first()
    if existing is None:
        return None
    same = (
        existing.customer_id == customer.pk
        and existing.transaction.reference == str(reference).strip().upper()
        and existing.amount == amount
        and existing.reason == reason
    )
    if not same:
        raise Conflict(
            _(
                "This confirmation was already used for a different dispute; "
                "ask the assistant to prepare the new one."
            ),
            code="idempotency_key_reused",
        )
    return DisputeResult(dispute=existing, replayed=True)


# --- the review workflow ------------------------------------------------------

Status = Dispute.Status
# opened → in review → resolved or rejected. Resolved and rejected are final.
REVIEW_MOVES: dict[str, tuple[str, ...]] = {
    Status.OPENED: (Status.IN_REVIEW,),
    Status.IN_REVIEW: (Status.RESOLVED, Status.REJECTED),
}
REVIEW_PERMISSION = "disputes.change_dispute"


def dispute_review_moves(status: str) -> list[tuple[str, str]]:
    """The statuses a dispute in ``status`` may move to, as (value, label)."""
    return [(move, Status(move).label) for move in REVIEW_MOVES.get(status, ())]


def dispute_review(
    *, dispute: Dispute, to_status: str, note: str, staff_user: User, customer_note: str = ""
) -> DisputeReview:
    """Move a dispute one step along the review workflow, with the staff member's note
    (for the record) and, if given, a note for the customer.

    ``dispute.status`` is the status the staff member saw: the UPDATE is
    conditional on it, so when two staff move the same dispute at once one
    wins and the other is told what happened, and nothing else is written.
    Once it has committed, ``dispute_moved`` tells the layers above.
    """
    staff_check(staff_user, REVIEW_PERMISSION, "Only support staff may review disputes.")
    note = note_clean(
        note, "Write a note saying why you move this dispute; it goes on the record with your name."
    )
    customer_note = customer_note.strip() if isinstance(customer_note, str) else ""
    if len(customer_note) > MAX_NOTE_LENGTH:
        raise InvalidInput(
            f"The note for the customer is too long; keep it under {MAX_NOTE_LENGTH} characters.",
            code="note_too_long",
        )
    if to_status not in Status.values:
        raise InvalidInput(f"{to_status!r} is not a dispute status.", code="invalid_status")
    seen = dispute.status
    if to_status not in REVIEW_MOVES.get(seen, ()):
        raise RuleViolation(_illegal_move(dispute, seen, to_status), code="illegal_transition")
    with transaction.atomic():
        moved = Dispute.objects.filter(pk=dispute.pk, status=seen).update(status=to_status)
        if not moved:
            current = Dispute.objects.get(pk=dispute.pk)
            raise Conflict(
                f"{dispute} is now {current.get_status_display().lower()}: it changed while "
                f"you were looking, so nothing was recorded. Reload it and review again.",
                code="dispute_changed",
            )
        review = DisputeReview(
            dispute=dispute,
            from_status=seen,
            to_status=to_status,
            note=note,
            customer_note=customer_note,
            staff_user=staff_user,
        )
        review.full_clean()
        review.save()
        dispute.status = to_status
        transaction.on_commit(lambda: dispute_moved.send(sender=Dispute, dispute=dispute, review=review))
    return review


def _illegal_move(dispute: Dispute, seen: str, to_status: str) -> str:
    now, wanted = Status(seen).label.lower(), Status(to_status).label.lower()
    moves = REVIEW_MOVES.get(seen, ())
    if not moves:
        return f"{dispute} is {now}, which is final; it cannot move to {wanted}."
    allowed = " or ".join(Status(move).label.lower() for move in moves)
    return f"{dispute} is {now}; it can move only to {allowed}, not to {wanted}."
