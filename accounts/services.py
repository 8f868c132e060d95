"""State changes to cards. The chat harness, the admin and the lab all call these."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from accounts.errors import Conflict, InvalidInput
from accounts.selectors import card_get
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
        card = card_get(customer=customer, last4=last4)
        if card.block_key == idempotency_key:
            return CardBlockResult(card=card, changed=True)  # a retry of the call that blocked it
        if Card.objects.filter(block_key=idempotency_key).exists():
            raise Conflict("This confirmation was already used to block another card; "
                           "ask the assistant to prepare the new block.",
                           code="idempotency_key_reused")
        changed = Card.objects.filter(pk=card.pk, status=Card.Status.ACTIVE).update(
            status=Card.Status.BLOCKED, blocked_at=timezone.now(), block_key=idempotency_key
        )
        card.refresh_from_db()
        return CardBlockResult(card=card, changed=bool(changed))

