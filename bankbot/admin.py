from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.admin import ReadOnlyAdmin
from bankbot.models import Conversation, Message


class MessageInline(admin.TabularInline):
    model = Message
    readonly_fields = fields = ("created_at", "role", "text", "ui_action", "flagged")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "customer", "title", "created_at"]
    search_fields = ["public_id", "title", "customer__full_name"]
    list_select_related = ["customer"]
    readonly_fields = ["public_id", "customer", "title", "created_at"]
    inlines = [MessageInline]


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ["conversation", "role", "created_at", "flagged"]
    list_filter = ["role"]
    readonly_fields = ["conversation", "role", "text", "ui_action", "payload",
                       "client_message_id", "flagged", "created_at"]
