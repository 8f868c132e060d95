"""What the harness stores: proposals, confirmations (with their stored responses), the trace.

The harness's one tie to the chat is in the data: the conversation a proposal or a trace
row belongs to, a foreign key named by its string (``"bankbot.Conversation"``), so the
harness imports nothing of the chat (tests/project/test_import_directions.py keeps it so).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from accounts.models import AppendOnlyModel, Customer


class Proposal(models.Model):
    """A write the model asked for and policy allowed — or a support staff member
    proposed (``proposed_by``) — waiting for the customer's click."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        EXECUTED = "executed", "Executed"
        FAILED = "failed", "Failed"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"
        SUPERSEDED = "superseded", "Superseded"  # a newer proposal of the same action replaced it

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="proposals")
    conversation = models.ForeignKey(
        "bankbot.Conversation", on_delete=models.PROTECT, related_name="proposals"
    )
    tool = models.CharField(max_length=50)
    args = models.JSONField()  # canonical, validated arguments
    args_digest = models.CharField(max_length=64)
    summary = models.CharField(max_length=200)
    # External text the model had read this turn before proposing (G6): shown
    # on the confirm card as a warning.
    external_sources = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # A support staff member who proposed it to the customer from the chat
    # (bankbot/staff_proposals.py); None: the model proposed it. Either way only
    # the customer's click carries it out.
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="proposals_made",
    )

    class Meta:
        indexes = [models.Index(fields=["customer", "status"], name="proposal_customer_status_idx")]

    def __str__(self) -> str:
        return f"{self.summary} ({self.status})"

    @property
    def reference(self) -> str:
        return f"P-{self.public_id.hex[:12]}"


class Confirmation(models.Model):
    """The customer's click that executed a proposal, and what it answered (G5).

    One per proposal. Its key, made by the server, is the write's idempotency key,
    and it keeps the response for replays, after Stripe: same key and fingerprint
    → that response, marked replayed; another fingerprint or customer → an error.
    Written in the transaction that executes, so it exists exactly when its action
    committed. The response is kept until ``replay_until`` (at least 24 h);
    ``purge_idempotency`` clears it then, and the key counts as new.
    """

    proposal = models.OneToOneField(Proposal, on_delete=models.PROTECT, related_name="confirmation")
    idempotency_key = models.UUIDField(unique=True, editable=False)
    approver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    created_at = models.DateTimeField(auto_now_add=True)
    fingerprint = models.CharField(max_length=120, blank=True)  # tool + ":" + args digest
    response = models.JSONField(null=True, blank=True)
    replay_until = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.proposal} by {self.approver}"


class ToolCallTrace(AppendOnlyModel):
    class Event(models.TextChoices):
        CALLED = "called", "Read call"
        PROPOSED = "proposed", "Proposed"
        DENIED = "denied", "Denied"
        CONFIRMED = "confirmed", "Confirmed"
        EXECUTED = "executed", "Executed"
        REPLAYED = "replayed", "Replayed"
        FAILED = "failed", "Failed"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"
        SUPERSEDED = "superseded", "Superseded"
        FLAGGED = "flagged", "Output flagged"
        MODEL_ERROR = "model_error", "Model error"

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    harness = models.CharField(max_length=10, default="guarded")
    event = models.CharField(max_length=12, choices=Event.choices)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, null=True, blank=True)
    conversation = models.ForeignKey("bankbot.Conversation", on_delete=models.PROTECT, null=True, blank=True)
    proposal = models.ForeignKey(
        Proposal, on_delete=models.PROTECT, null=True, blank=True, related_name="trace"
    )
    tool = models.CharField(max_length=50, blank=True)
    mandate = models.JSONField(null=True, blank=True)
    raw_args = models.TextField(blank=True)
    validated_args = models.JSONField(null=True, blank=True)
    decision = models.CharField(max_length=10)  # allow / deny / ok / error
    reason_code = models.CharField(max_length=50, blank=True)
    reason = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True)
    idempotency_key = models.UUIDField(null=True, blank=True, db_index=True)
    approver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True)
    # The staff member who proposed the row's proposal, if staff did (its
    # ``proposed_by``): a staff proposal's every row names both people.
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    latency_ms = models.FloatField(default=0)

    class Meta(AppendOnlyModel.Meta):
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.event} {self.tool} {self.decision}"
