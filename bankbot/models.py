"""The chat: conversations and their messages."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from accounts.models import Customer


class Conversation(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="conversations")
    title = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The bank has news here (a dispute opened in it moved) that the customer has not
    # opened the conversation since: its entry in the sidebar says so.
    news_unseen = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["customer", "-created_at"], name="conversation_recent_idx")]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Message(models.Model):
    class Role(models.TextChoices):
        CUSTOMER = "customer", "Customer"
        ASSISTANT = "assistant", "Assistant"
        TOOL = "tool", "Tool"
        SYSTEM = "system", "System"
        # A person from support, while they hold the conversation (support/): shown to
        # the customer under their name, never read by the model.
        STAFF = "staff", "Staff"

    conversation = models.ForeignKey(Conversation, on_delete=models.PROTECT, related_name="messages")
    role = models.CharField(max_length=10, choices=Role.choices)
    text = models.TextField(blank=True)
    # An explicit UI choice ("Dispute" on a statement row, "Block" on a card):
    # authored by the customer, so it may enter the mandate (G7).
    ui_action = models.JSONField(null=True, blank=True)
    # For role=assistant: the tool calls the model made; for role=tool: the
    # call id answered and the structured result.
    payload = models.JSONField(null=True, blank=True)
    # The browser's id for a customer message, so a resent frame is stored once.
    client_message_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULLs are not unique)
    flagged = models.CharField(max_length=300, blank=True)
    # For role=staff: the support staff member who wrote it.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation", "client_message_id"],
                name="message_client_id_unique_per_conversation",
            )
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.text[:40]}"
