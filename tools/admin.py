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
        "approver",
        "proposer",
        "latency_ms",
    ]
    list_filter = ["event", "decision", "harness", "tool"]
    search_fields = ["tool", "reason", "reason_code", "idempotency_key"]
    list_select_related = ["customer", "approver", "proposer"]
    date_hierarchy = "created_at"


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin[Proposal]):
    # Who proposed it: support staff (``proposed_by``), or the assistant when empty.
    list_display = ["reference", "summary", "status", "customer", "proposed_by", "created_at", "expires_at"]
    list_filter = ["status", "tool"]
    search_fields = ["public_id", "summary", "proposed_by__username"]
    list_select_related = ["customer", "proposed_by"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin[Confirmation]):
    list_display = ["proposal", "approver", "idempotency_key", "created_at", "replay_until"]
    list_select_related = ["proposal", "approver"]
    search_fields = ["idempotency_key", "fingerprint"]
