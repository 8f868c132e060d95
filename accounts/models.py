"""The bank's side of the world: customers, their accounts, cards and transactions.

Database ids never leave the server; each row a customer can name has a public
reference (an account number, a card's last four digits, ``T-10452``).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TypeVar

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from accounts.text import reveal_hidden

KZT = "KZT"


class Customer(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="customer")
    full_name = models.CharField(max_length=200)

    def __str__(self) -> str:
        return f"{self.full_name} ({self.user.get_username()})"


class Account(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="accounts")
    number = models.CharField(max_length=34, unique=True, validators=[RegexValidator(r"^KZ[0-9A-Z]{10,32}$")])
    currency = models.CharField(max_length=3, default=KZT, editable=False)
    balance = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal("0.00"))

    def __str__(self) -> str:
        return self.number


class Card(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        BLOCKED = "blocked", "Blocked"

    class BlockedBy(models.TextChoices):
        # Who blocked the card decides who may unblock it: the customer may undo
        # only a block they made themselves, never one the bank made.
        CUSTOMER = "customer", "the customer"
        BANK = "bank", "the bank"

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="cards")
    brand = models.CharField(max_length=20, default="Visa")
    last4 = models.CharField(max_length=4, validators=[RegexValidator(r"^\d{4}$")])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    blocked_at = models.DateTimeField(null=True, blank=True)
    # The idempotency key of the confirmation that blocked the card: a retry
    # with the same key answers "blocked" rather than "already blocked".
    block_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # Empty while active; a blocked card with no record of who blocked it counts
    # as the bank's block, which only staff may lift.
    blocked_by = models.CharField(
        max_length=10, choices=BlockedBy.choices, blank=True, default="", editable=False
    )

    class Meta:
        constraints = [
            # The customer names a card by its last four digits, so they must be
            # unambiguous within an account.
            models.UniqueConstraint(fields=["account", "last4"], name="card_last4_unique_per_account"),
            models.CheckConstraint(
                condition=Q(status="active", blocked_at__isnull=True)
                | Q(status="blocked", blocked_at__isnull=False),
                name="card_blocked_at_matches_status",
            ),
            # A customer's block is always their confirmation's: it carries its key.
            models.CheckConstraint(
                condition=~Q(blocked_by="customer") | Q(status="blocked", block_key__isnull=False),
                name="card_customer_block_has_its_key",
            ),
        ]

    def __str__(self) -> str:
        return self.masked

    @property
    def masked(self) -> str:
        return f"{self.brand} •••• {self.last4}"


class Transaction(models.Model):
    # No index of its own: the (account, posted_at) index serves every lookup by
    # account, and a lone account index tempts the planner into reading a whole
    # account's history for one month (docs/benchmarks.md, part d).
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="transactions", db_index=False
    )
    card = models.ForeignKey(
        Card, on_delete=models.PROTECT, related_name="transactions", null=True, blank=True
    )
    reference = models.CharField(max_length=20, unique=True, validators=[RegexValidator(r"^T-\d+$")])
    posted_at = models.DateTimeField()
    amount = models.DecimalField(max_digits=14, decimal_places=2)
    # Both are written by the merchant, not the bank: external text (G6).
    merchant = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    # The merchant category code the card network gave the payment (ISO 18245): the
    # bank's data, so spending categories come from it alone (accounts/categories.py).
    # NULL where there is none (a transfer); NULL, not "", also lets SQLite add the
    # column in place, keeping the table's HourlyTotal triggers (migration 0004).
    mcc = models.CharField(  # noqa: DJ001
        max_length=4,
        null=True,
        blank=True,
        validators=[RegexValidator(r"^\d{4}$")],
        help_text="Merchant category code (ISO 18245), from the card network.",
    )

    class Meta:
        indexes = [models.Index(fields=["account", "posted_at"], name="txn_account_posted_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transaction_amount_positive"),
        ]

    def __str__(self) -> str:
        # Named in admin titles, links and lists: the merchant's hidden characters shown.
        return f"{self.reference} {reveal_hidden(self.merchant)} {self.amount} {KZT}"


class HourlyTotal(models.Model):
    """How many transactions an account posted in one UTC hour, and their sum.

    Kept by the database, not by Python: triggers on ``accounts_transaction``
    (migration 0004) add, move and subtract rows on every INSERT, UPDATE and
    DELETE, whichever path wrote them (ORM, ``bulk_create``, raw SQL). A
    statement's count and total then read at most ~745 of these per account
    for a month, however many transactions the month holds (benchmark d).

    Hours, not local months: the bank's zone is a setting, and every local
    month of a whole-hour zone is an exact range of UTC hours. A zone with a
    sub-hour offset (Asia/Kolkata, historical local mean times) is still exact:
    ``statement_for_month`` counts the part-hours at the month's edges from the
    transactions themselves (less than two hours of one account's rows).
    """

    # Derived data: it goes with the account (which cannot be deleted while it
    # has transactions). No index of its own: the unique (account, hour) serves.
    account = models.ForeignKey(
        Account, on_delete=models.CASCADE, related_name="hourly_totals", db_index=False
    )
    hour = models.DateTimeField()  # the start of the UTC hour
    count = models.BigIntegerField()
    # In minor units (tiyn): SQLite has no exact decimal type, and a running
    # total kept in a REAL drifts; an integer is exact on both engines.
    total_minor = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["account", "hour"], name="hourly_total_account_hour"),
            models.CheckConstraint(condition=Q(count__gte=0), name="hourly_total_count_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.hour:%Y-%m-%d %H:00} UTC: {self.count}"


_M = TypeVar("_M", bound=models.Model)


class AppendOnlyQuerySet(models.QuerySet[_M]):
    """For evidence: rows are added, never changed or removed, not even in bulk."""

    def update(self, **kwargs: object) -> int:
        raise PermissionError(f"{self.model._meta.verbose_name_plural} are append-only")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError(f"{self.model._meta.verbose_name_plural} are append-only")


class AppendOnlyModel(models.Model):
    """A record of something staff did. Integrity, not business logic: an
    existing row is never rewritten or deleted through the ORM."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True
        # Rows are written by a service only; no permission adds, changes or
        # deletes one.
        default_permissions = ("view",)

    def save(
        self,
        *,
        force_insert: bool | tuple[models.base.ModelBase, ...] = False,
        force_update: bool = False,
        using: str | None = None,
        update_fields: Iterable[str] | None = None,
    ) -> None:
        if self.pk is not None:
            raise PermissionError(f"{self._meta.verbose_name_plural} are append-only")
        super().save(
            force_insert=force_insert, force_update=force_update, using=using, update_fields=update_fields
        )

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError(f"{self._meta.verbose_name_plural} are append-only")


class CardUnblock(AppendOnlyModel):
    """A card was unblocked: who, when, why, and which block it undid.

    Staff unblock any block through ``card_unblock``, with a note; a customer
    unblocks only a block of their own, through ``card_unblock_own`` (the chat's
    ``unblock_card``, after their click), under their confirmation's key.
    """

    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="unblocks")
    note = models.TextField(blank=True)
    # None: the card's owner unblocked it themselves.
    staff_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="card_unblocks",
        null=True,
        blank=True,
    )
    # The idempotency key of the customer's confirmation that unblocked it: a
    # retry with the same key answers "unblocked" rather than "not blocked".
    unblock_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # What the unblock cleared, kept because Card.block_key must be emptied (it is
    # unique): the time of the block and the confirmation key that made it.
    blocked_at = models.DateTimeField()
    block_key = models.UUIDField(null=True, blank=True, editable=False)

    class Meta(AppendOnlyModel.Meta):
        ordering = ["id"]
        permissions = [("unblock_card", "Can unblock a card (with a note)")]
        constraints = [
            # Staff write a note; a customer's own unblock carries its key instead.
            models.CheckConstraint(
                condition=(Q(staff_user__isnull=False, unblock_key__isnull=True) & ~Q(note=""))
                | Q(staff_user__isnull=True, unblock_key__isnull=False),
                name="card_unblock_by_staff_with_note_or_by_customer_with_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card} unblocked by {self.staff_user or 'its owner'}"
