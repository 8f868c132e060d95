"""Idempotency, after Stripe and the IETF Idempotency-Key draft (G5).

The record of a keyed execution is its ``Confirmation``: the key, the request's
fingerprint and the response, written in the transaction that executes, so it
exists exactly when the action committed. Same key and fingerprint → the stored
response, marked replayed. Same key, other fingerprint (or another customer) →
an error. Past its retention the response is gone and the key counts as new;
``idempotency_purge`` clears those. The unique key makes this hold across workers.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from accounts.models import Customer
from errors import Conflict, DomainError
from tools.faults import ResponseLost
from tools.json_types import JSONObject
from tools.models import Confirmation, Proposal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

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


def idempotency_replay(
    confirmation: Confirmation, *, customer: Customer, fingerprint: str
) -> JSONObject | None:
    """The response stored under ``confirmation``'s key, or None when there is
    none to replay (past its retention, when the key counts as new)."""
    if not isinstance(confirmation.response, dict) or confirmation.replay_until is None:
        return None
    if confirmation.replay_until <= timezone.now():
        return None
    if confirmation.proposal.customer_id != customer.pk or confirmation.fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            "This idempotency key was already used for a different request; "
            "a changed action needs a new confirmation."
        )
    return confirmation.response


def idempotency_store(
    *,
    proposal: Proposal,
    key: uuid.UUID,
    approver: User,
    fingerprint: str,
    response: JSONObject,
) -> Confirmation:
    """Record the click and its answer under ``key``, in the caller's transaction:
    one INSERT that commits with the action or not at all (the unique key and the
    one confirmation per proposal refuse a second)."""
    return Confirmation.objects.create(
        proposal=proposal,
        idempotency_key=key,
        approver=approver,
        fingerprint=fingerprint,
        response=response,
        replay_until=timezone.now() + _retention(),
    )


def idempotency_purge(*, now: datetime | None = None) -> int:
    """Forget the responses past their retention; returns how many. The
    confirmations stay: who clicked, and the key, are part of the record."""
    return Confirmation.objects.filter(replay_until__lte=now or timezone.now()).update(
        response=None, replay_until=None
    )
