"""Disputes a customer opened about one of their transactions."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from accounts.models import Customer, Transaction


class Dispute(models.Model):
    class Status(models.TextChoices):
        OPENED = "opened", "Opened"
        IN_REVIEW = "in_review", "In review"
        RESOLVED = "resolved", "Resolved"
        REJECTED = "rejected", "Rejected"

    OPEN_STATUSES = (Status.OPENED, Status.IN_REVIEW)

    reference = models.CharField(max_length=20, unique=True, null=True, editable=False)  # noqa: DJ001
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="disputes")
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="disputes")
    amount = models.DecimalField(max_digits=14, decimal_places=2)
    reason = models.TextField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPENED)
    created_at = models.DateTimeField(auto_now_add=True)
    # The confirmation's idempotency key: a retry finds this row instead of
    # making a second dispute, even in another worker (G5).
    idempotency_key = models.UUIDField(unique=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["transaction"],
                condition=Q(status__in=["opened", "in_review"]),
                name="one_open_dispute_per_transaction",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="dispute_amount_positive"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="dispute_queue_idx")]

    def __str__(self) -> str:
        return self.reference or f"dispute #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES
