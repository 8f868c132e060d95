"""Idempotency records, after Stripe and the IETF Idempotency-Key draft (G5).

A record is written in the transaction that executes its action, so it exists
exactly when the action committed. Same key and fingerprint → the stored
response, marked replayed. Same key, other fingerprint (or another customer) →
an error. A record past its retention counts as new; ``purge_idempotency``
deletes those. The unique key makes this hold across workers.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from accounts.errors import Conflict, DomainError
from accounts.models import Customer
from tools.faults import ResponseLost
from tools.models import IdempotencyRecord

# Failures worth running the whole transaction again for, with the same key: the
# database was busy (SQLite's "database is locked"), chose this transaction as a
# deadlock or serialization victim, or went away; or (tests) the answer was lost.
TRANSIENT = (OperationalError, ResponseLost)


class IdempotencyKeyReused(Conflict):
    code = "idempotency_key_reused"


class TemporarilyUnavailable(DomainError):
    code = "temporarily_unavailable"


def _retention() -> timedelta:
    return timedelta(hours=settings.BANKBOT_IDEMPOTENCY_TTL_HOURS)


def idempotency_replay(*, key: uuid.UUID, customer: Customer, fingerprint: str
                       ) -> dict[str, Any] | None:
    """The response stored for ``key``, or None when the key is new (or past its
    retention, when it counts as new: its old record is deleted)."""
    record = IdempotencyRecord.objects.filter(key=key).first()
    if record is None:
        return None
    if record.expires_at <= timezone.now():
        record.delete()
        return None
    if record.customer_id != customer.pk or record.fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            "This idempotency key was already used for a different request; "
            "a changed action needs a new confirmation."
        )
    return record.response


def idempotency_store(*, key: uuid.UUID, customer: Customer, fingerprint: str,
                      response: dict[str, Any]) -> None:
    """Record the answer to ``key``, in the caller's transaction: it commits with
    the action or not at all. The unique key refuses a second record."""
    IdempotencyRecord.objects.create(key=key, customer=customer, fingerprint=fingerprint,
                                     response=response, expires_at=timezone.now() + _retention())


def idempotency_purge(*, now: Any = None) -> int:
    """Delete records past their retention; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
