"""Idempotency records, after Stripe and the IETF Idempotency-Key draft (G5).

Same key and fingerprint, completed → the stored response, marked replayed.
In progress → a conflict, never a second execution. Same key, other
fingerprint → an error. An expired record counts as new. The unique key and
conditional updates make this hold across workers.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from accounts.errors import Conflict, DomainError
from accounts.models import Customer
from tools.faults import ResponseLost
from tools.models import IdempotencyRecord

# Errors worth trying again with the same key: the database was busy or went
# away, or the answer was lost after the service committed.
TRANSIENT = (OperationalError, ResponseLost)
MAX_ATTEMPTS = 3
LEASE = timedelta(seconds=30)


class IdempotencyKeyReused(Conflict):
    code = "idempotency_key_reused"


class InProgress(Conflict):
    code = "in_progress"


class TemporarilyUnavailable(DomainError):
    code = "temporarily_unavailable"


def _retention() -> timedelta:
    return timedelta(hours=settings.BANKBOT_IDEMPOTENCY_TTL_HOURS)


def idempotency_begin(
    *, key: uuid.UUID, customer: Customer, fingerprint: str
) -> dict[str, Any] | None:
    """Take the key. Returns the stored response when the key already completed
    (a replay), None when the caller now owns the execution."""
    now = timezone.now()
    with transaction.atomic():
        record = IdempotencyRecord.objects.select_for_update().filter(key=key).first()
        if record is not None and record.expires_at <= now:
            record.delete()  # past retention, the key counts as new
            record = None
        if record is None:
            try:
                with transaction.atomic():
                    IdempotencyRecord.objects.create(
                        key=key, customer=customer, fingerprint=fingerprint,
                        locked_until=now + LEASE, expires_at=now + _retention(),
                    )
                return None
            except IntegrityError:  # another worker took the key first
                record = IdempotencyRecord.objects.get(key=key)
        if record.customer_id != customer.pk or record.fingerprint != fingerprint:
            raise IdempotencyKeyReused(
                "This idempotency key was already used for a different request; "
                "a changed action needs a new confirmation."
            )
        if record.state == IdempotencyRecord.State.COMPLETED:
            return record.response
        took_over = IdempotencyRecord.objects.filter(
            pk=record.pk, state=IdempotencyRecord.State.IN_PROGRESS, locked_until__lt=now
        ).update(locked_until=now + LEASE)
        if took_over:
            return None  # the previous holder died mid-call; the service's own key check
            #              makes running it again safe
        raise InProgress("This action is already being carried out; wait a moment.")


def idempotency_take_new(*, key: uuid.UUID, customer: Customer, fingerprint: str) -> None:
    """Take a key made a moment ago (a new confirmation's UUID4): nobody else can
    hold it, so it is one INSERT; the unique constraint still guards it."""
    now = timezone.now()
    IdempotencyRecord.objects.create(key=key, customer=customer, fingerprint=fingerprint,
                                     locked_until=now + LEASE, expires_at=now + _retention())


def idempotency_complete(*, key: uuid.UUID, response: dict[str, Any]) -> None:
    IdempotencyRecord.objects.filter(key=key).update(
        state=IdempotencyRecord.State.COMPLETED, response=response,
        completed_at=timezone.now(), locked_until=None,
    )


def idempotency_release(*, key: uuid.UUID) -> None:
    """Give the key back after transient failures, so a later retry can begin again."""
    IdempotencyRecord.objects.filter(key=key, state=IdempotencyRecord.State.IN_PROGRESS).delete()


def idempotent_run(
    *,
    key: uuid.UUID,
    customer: Customer,
    fingerprint: str,
    run: Callable[[], dict[str, Any]],
    on_retry: Callable[[int, BaseException], None] | None = None,
    begun: bool = False,
    on_complete: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[dict[str, Any], bool]:
    """Run once per key. Returns (response, replayed).

    Transient failures are retried here, with the same key, a few times in
    quick succession: a window far shorter than the record's retention. A
    domain error is an answer too: it is stored and replayed like a success.

    ``begun``: the caller already took the key with ``idempotency_begin`` (in its
    own transaction). ``on_complete`` runs in the transaction that stores the
    response, so the caller's bookkeeping commits with it, in one round trip.
    """
    if not begun:
        stored = idempotency_begin(key=key, customer=customer, fingerprint=fingerprint)
        if stored is not None:
            return stored, True
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            response = {"status": "executed", "result": run()}
            break
        except DomainError as error:
            response = {"status": "failed", "error": error.as_dict()}
            break
        except TRANSIENT as error:
            if on_retry is not None:
                on_retry(attempt, error)
    else:
        idempotency_release(key=key)
        raise TemporarilyUnavailable(
            "The bank could not finish this just now. Nothing was done twice; "
            "press Try again in a moment."
        )
    with transaction.atomic():
        idempotency_complete(key=key, response=response)
        if on_complete is not None:
            on_complete(response)
    return response, False


def idempotency_purge(*, now: Any = None) -> int:
    """Delete records past their retention; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
