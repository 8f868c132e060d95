"""Disputes a customer opened about one of their transactions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from accounts.models import AppendOnlyModel, Customer, Transaction
from disputes.reasons import DISPUTE_REASONS, REASON_LABELS


class Dispute(models.Model):
    # django-stubs lack the enum functional API that Django's choices support.
    Reason = models.TextChoices(
        "Reason",
        [  # type: ignore[call-overload]
            (code, (code, label)) for code, label in REASON_LABELS.items()
        ],
    )

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
    reason = models.CharField(max_length=20, choices=Reason.choices)
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
            models.CheckConstraint(condition=Q(reason__in=DISPUTE_REASONS), name="dispute_reason_is_a_code"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="dispute_queue_idx")]

    def __str__(self) -> str:
        return self.reference or f"dispute #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES


class DisputeReview(AppendOnlyModel):
    """One step of the review workflow: who moved the dispute, from what to what,
    when and why. Written only by ``dispute_review``; append-only."""

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="reviews")
    from_status = models.CharField(max_length=12, choices=Dispute.Status.choices)
    to_status = models.CharField(max_length=12, choices=Dispute.Status.choices)
    note = models.TextField()  # for the record: why, in the staff member's words
    # For the customer: what they read in their chat and from the assistant (staff-
    # written text, shown as such; it can never authorise anything).
    customer_note = models.TextField(blank=True, default="")
    staff_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dispute_reviews"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta(AppendOnlyModel.Meta):
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(note=""), name="dispute_review_note_required"),
            models.CheckConstraint(
                condition=~Q(from_status=models.F("to_status")), name="dispute_review_changes_status"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dispute}: {self.from_status} → {self.to_status}"
