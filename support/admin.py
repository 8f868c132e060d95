"""The hand-over's record in admin (read-only evidence): each hand-over with its trail —
asked, taken, every staff message, handed back, closed, and staff's proposals — and the
hand-overs on the conversation's own page."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.admin import ReadOnlyAdmin
from bankbot.admin import ConversationAdmin, RecordInline
from bankbot.models import Conversation
from support.models import Handoff, HandoffEvent


class HandoffEventInline(admin.TabularInline[HandoffEvent, Handoff]):
    model = HandoffEvent
    readonly_fields = fields = ("at", "kind", "actor", "text")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Handoff)
class HandoffAdmin(ReadOnlyAdmin[Handoff]):
    list_display = ["id", "conversation", "reason", "state", "holder", "requested_at", "taken_at", "ended_at"]
    list_filter = ["state", "reason"]
    list_select_related = ["conversation", "holder"]
    readonly_fields = [
        "conversation",
        "reason",
        "state",
        "holder",
        "language",
        "requested_at",
        "taken_at",
        "ended_at",
    ]
    inlines = [HandoffEventInline]


class HandoffInline(RecordInline):
    model = Handoff
    readonly_fields = fields = ("requested_at", "reason", "state", "holder", "taken_at", "ended_at")
    show_change_link = True


class ConversationWithHandoffsAdmin(ConversationAdmin):
    inlines = [*ConversationAdmin.inlines, HandoffInline]


admin.site.unregister(Conversation)
admin.site.register(Conversation, ConversationWithHandoffsAdmin)
