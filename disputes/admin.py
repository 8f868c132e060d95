from __future__ import annotations

from django.contrib import admin

from disputes.models import Dispute


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = ["reference", "customer", "transaction", "amount", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["reference", "customer__full_name", "transaction__merchant"]
    list_select_related = ["customer", "transaction"]
    readonly_fields = ["reference", "customer", "transaction", "amount", "idempotency_key", "created_at"]
