"""State changes to cards. The chat harness, the admin and the lab all call these."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from accounts.errors import InvalidInput, NotFound
from accounts.models import Card, Customer


@dataclass(frozen=True)
class CardBlockResult:
    card: Card
    changed: bool  # False when the card was already blocked: a clear no-op

    def as_dict(self) -> dict[str, str | bool | None]:
        return {
            "card": self.card.last4,
            "label": self.card.masked,
            "status": str(self.card.status),
            "blocked_at": self.card.blocked_at.isoformat() if self.card.blocked_at else None,
            "changed": self.changed,
        }


def card_block(*, customer: Customer, last4: str, idempotency_key: uuid.UUID) -> CardBlockResult:
    """Block one of the customer's cards.

    Blocking a blocked card changes nothing and says so. The conditional UPDATE
    makes two simultaneous blocks end with exactly one change.
    """
    if not isinstance(idempotency_key, uuid.UUID):
        raise InvalidInput("An idempotency key (UUID) is required.", code="missing_idempotency_key")
    with transaction.atomic():
        try:
            card = Card.objects.select_for_update().get(
                account__customer=customer, last4=str(last4).strip()
            )
        except Card.DoesNotExist:
            raise NotFound(f"There is no card ending in {last4} on your account.") from None
        if card.block_key == idempotency_key:
            return CardBlockResult(card=card, changed=True)  # a retry of the call that blocked it
        changed = Card.objects.filter(pk=card.pk, status=Card.Status.ACTIVE).update(
            status=Card.Status.BLOCKED, blocked_at=timezone.now(), block_key=idempotency_key
        )
        card.refresh_from_db()
        return CardBlockResult(card=card, changed=bool(changed))

