"""Harness records in admin: evidence, so read-only for everyone, superusers included."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from tools.models import Confirmation, IdempotencyRecord, Proposal, ToolCallTrace


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ToolCallTrace)
class ToolCallTraceAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "harness", "event", "tool", "decision", "reason_code",
                    "customer", "latency_ms"]
    list_filter = ["event", "decision", "harness", "tool"]
    search_fields = ["tool", "reason", "reason_code", "idempotency_key"]
    list_select_related = ["customer"]
    date_hierarchy = "created_at"


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin):
    list_display = ["reference", "summary", "status", "customer", "created_at", "expires_at"]
    list_filter = ["status", "tool"]
    search_fields = ["public_id", "summary"]
    list_select_related = ["customer"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin):
    list_display = ["proposal", "approver", "idempotency_key", "created_at"]
    list_select_related = ["proposal", "approver"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ["key", "state", "fingerprint", "customer", "created_at", "expires_at"]
    list_filter = ["state"]
