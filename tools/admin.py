"""Harness records in admin: evidence, so read-only for everyone, superusers included."""

from __future__ import annotations

from django.contrib import admin

from accounts.admin import ReadOnlyAdmin
from tools.models import Confirmation, Proposal, ToolCallTrace


@admin.register(ToolCallTrace)
class ToolCallTraceAdmin(ReadOnlyAdmin[ToolCallTrace]):
    list_display = [
        "created_at",
        "harness",
        "event",
        "tool",
        "decision",
        "reason_code",
        "customer",
        "latency_ms",
    ]
    list_filter = ["event", "decision", "harness", "tool"]
    search_fields = ["tool", "reason", "reason_code", "idempotency_key"]
    list_select_related = ["customer"]
    date_hierarchy = "created_at"


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin[Proposal]):
    list_display = ["reference", "summary", "status", "customer", "created_at", "expires_at"]
    list_filter = ["status", "tool"]
    search_fields = ["public_id", "summary"]
    list_select_related = ["customer"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin[Confirmation]):
    list_display = ["proposal", "approver", "idempotency_key", "created_at", "replay_until"]
    list_select_related = ["proposal", "approver"]
    search_fields = ["idempotency_key", "fingerprint"]
