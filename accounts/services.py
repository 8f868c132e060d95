"""State changes to cards. The chat harness, the admin and the lab all call these."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Card, CardUnblock, Customer
from accounts.selectors import card_get
from errors import Conflict, InvalidInput, NotPermitted, RuleViolation

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

MAX_NOTE_LENGTH = 2000
UNBLOCK_PERMISSION = "accounts.unblock_card"
KEY_REQUIRED = _("An idempotency key (UUID) is required.")
NOT_BLOCKED = _("Card %(card)s is not blocked; there is nothing to unblock.")


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
        raise InvalidInput(KEY_REQUIRED, code="missing_idempotency_key")
    with transaction.atomic():
        card = card_get(customer=customer, last4=last4)
        if card.block_key == idempotency_key:
            return CardBlockResult(card=card, changed=True)  # a retry of the call that blocked it
        reversal = CardUnblock.objects.filter(block_key=idempotency_key).first()
        if reversal is not None:
            # A late retry of a block that was since reversed must not block
            # the card again behind the back of whoever unblocked it.
            raise Conflict(
                _(
                    "This block was carried out and later reversed by support staff; "
                    "ask for a new block if the card should be blocked again."
                )
                if reversal.staff_user_id
                else _(
                    "This block was carried out and later reversed in the chat; "
                    "ask for a new block if the card should be blocked again."
                ),
                code="block_reversed",
            )
        if Card.objects.filter(block_key=idempotency_key).exists():
            raise Conflict(
                _(
                    "This confirmation was already used to block another card; "
                    "ask the assistant to prepare the new block."
                ),
                code="idempotency_key_reused",
            )
        changed = Card.objects.filter(pk=card.pk, status=Card.Status.ACTIVE).update(
            status=Card.Status.BLOCKED,
            blocked_at=timezone.now(),
            block_key=idempotency_key,
            blocked_by=Card.BlockedBy.CUSTOMER,
        )
        card.refresh_from_db()
        return CardBlockResult(card=card, changed=bool(changed))


@dataclass(frozen=True)
class CardUnblockResult:
    card: Card
    changed: bool  # False when the card was already active: a clear no-op

    def as_dict(self) -> dict[str, str | bool]:
        return {
            "card": self.card.last4,
            "label": self.card.masked,
            "status": "active",
            "changed": self.changed,
        }


def card_unblock_check(*, card: Card) -> None:
    """The customer may lift only a block they made themselves (G7's business rule)."""
    if card.status != Card.Status.BLOCKED:
        raise RuleViolation(NOT_BLOCKED, code="card_not_blocked", card=card.masked)
    if card.blocked_by != Card.BlockedBy.CUSTOMER:
        raise RuleViolation(
            _(
                "Card %(card)s was blocked by the bank, so only the bank can "
                "unblock it: please call support or visit a branch."
            ),
            code="card_blocked_by_bank",
            card=card.masked,
        )


def card_unblock_own(*, customer: Customer, last4: str, idempotency_key: uuid.UUID) -> CardUnblockResult:
    """Unblock one of the customer's cards that they blocked themselves.

    A block the bank made stays (only staff lift it, ``card_unblock``). The
    UPDATE is conditional on the block seen, so a block made meanwhile by the
    bank, or a second unblock at once, changes nothing; the record keeps the key.
    """
    if not isinstance(idempotency_key, uuid.UUID):
        raise InvalidInput(KEY_REQUIRED, code="missing_idempotency_key")
    with transaction.atomic():
        card = card_get(customer=customer, last4=last4)
        done = CardUnblock.objects.filter(unblock_key=idempotency_key).first()
        if done is not None and done.card_id == card.pk:
            return CardUnblockResult(card=card, changed=True)  # a retry of the call that did it
        if done is not None:
            raise Conflict(
                _(
                    "This confirmation was already used to unblock another card; "
                    "ask the assistant to prepare the new unblock."
                ),
                code="idempotency_key_reused",
            )
        if card.status == Card.Status.ACTIVE:
            return CardUnblockResult(card=card, changed=False)
        card_unblock_check(card=card)
        unblocked = Card.objects.filter(
            pk=card.pk,
            status=Card.Status.BLOCKED,
            blocked_by=Card.BlockedBy.CUSTOMER,
            block_key=card.block_key,
        ).update(status=Card.Status.ACTIVE, blocked_at=None, block_key=None, blocked_by="")
        if not unblocked:  # changed since it was read: read it again and say what it is
            card.refresh_from_db()
            if card.status == Card.Status.ACTIVE:
                return CardUnblockResult(card=card, changed=False)
            card_unblock_check(card=card)
            raise Conflict(
                _("Card %(card)s changed while it was being unblocked; ask again."),
                code="card_changed",
                card=card.masked,
            )
        assert card.blocked_at is not None  # blocked: the card_blocked_at_matches_status constraint
        record = CardUnblock(
            card=card, blocked_at=card.blocked_at, block_key=card.block_key, unblock_key=idempotency_key
        )
        record.full_clean()
        record.save()
        card.refresh_from_db()
        return CardUnblockResult(card=card, changed=True)


# --- staff actions -------------------------------------------------------------


def staff_check(user: User | AnonymousUser, permission: str, refusal: str) -> None:
    """Staff services re-check who acts, whatever the caller checked already."""
    if not (
        getattr(user, "is_active", False) and getattr(user, "is_staff", False) and user.has_perm(permission)
    ):
        raise NotPermitted(refusal)


def note_clean(note: object, missing: str) -> str:
    """A staff note is required: it goes on the record with the staff member's name."""
    text = note.strip() if isinstance(note, str) else ""
    if not text:
        raise InvalidInput(missing, code="note_required")
    if len(text) > MAX_NOTE_LENGTH:
        raise InvalidInput(
            f"The note is too long; keep it under {MAX_NOTE_LENGTH} characters.", code="note_too_long"
        )
    return text


def card_unblock(*, card: Card, note: str, staff_user: User) -> CardUnblock:
    """Unblock a blocked card on a staff member's word, recording who, when and why.

    Any block, the bank's too (a customer lifts only their own: ``card_unblock_own``).
    The block key is cleared (it is unique, and the next block brings its own)
    and kept on the record.
    The UPDATE is conditional on the block seen, so two staff unblocking at once
    record one unblock.
    """
    staff_check(staff_user, UNBLOCK_PERMISSION, "Only support staff may unblock a card.")
    note = note_clean(
        note, "Write a note saying why you unblock this card; it goes on the record with your name."
    )
    with transaction.atomic():
        current = Card.objects.get(pk=card.pk)
        unblocked = 0
        if current.status == Card.Status.BLOCKED:
            unblocked = Card.objects.filter(
                pk=card.pk,
                status=Card.Status.BLOCKED,
                block_key=current.block_key,
                blocked_at=current.blocked_at,
            ).update(status=Card.Status.ACTIVE, blocked_at=None, block_key=None, blocked_by="")
        if not unblocked:
            raise Conflict(NOT_BLOCKED, code="card_not_blocked", card=current.masked)
        assert current.blocked_at is not None  # blocked, as card_blocked_at_matches_status holds
        record = CardUnblock(
            card=current,
            note=note,
            staff_user=staff_user,
            blocked_at=current.blocked_at,
            block_key=current.block_key,
        )
        record.full_clean()
        record.save()
    card.refresh_from_db()
    return record
