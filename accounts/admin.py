from __future__ import annotations

from django.contrib import admin

from accounts.models import Account, Card, Customer, Transaction


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin):
    list_display = ["full_name", "user"]
    search_fields = ["full_name", "user__username"]


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = ["number", "customer", "currency", "balance"]
    search_fields = ["number", "customer__full_name"]
    list_select_related = ["customer"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["masked", "account", "status", "blocked_at"]
    list_filter = ["status"]
    search_fields = ["last4", "account__number"]
    list_select_related = ["account"]
    readonly_fields = ["blocked_at"]


@admin.register(Transaction)
class TransactionAdmin(admin.ModelAdmin):
    list_display = ["reference", "posted_at", "merchant", "amount", "account"]
    search_fields = ["reference", "merchant", "description"]
    date_hierarchy = "posted_at"
    list_select_related = ["account"]
