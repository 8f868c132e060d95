"""The chat's records in admin (read-only evidence), and the dispute page with the
trail of how each dispute came to be (the chat and the trace, which only this
package may read together)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from accounts.admin import ReadOnlyAdmin
from bankbot.dispute_trail import dispute_trail
from bankbot.models import Conversation, Message
from disputes.admin import DisputeAdmin
from disputes.models import Dispute
from tools.models import Proposal


class RecordInline(admin.TabularInline):
    """A conversation's record, listed on its page: read, never added to or changed
    here (messages, proposals, hand-overs come from the chat and its services)."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class MessageInline(RecordInline):
    model = Message
    readonly_fields = fields = ("created_at", "role", "author", "text", "ui_action", "flagged")


class ProposalInline(RecordInline):
    """The conversation's proposals, each with who proposed it: support staff
    (``proposed_by``) or, when empty, the assistant. Staff proposals are in the trail
    here as in the trace; only the customer's click carried any of them out."""

    model = Proposal
    readonly_fields = fields = ("created_at", "reference", "summary", "status", "proposed_by", "decided_at")
    show_change_link = True


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "customer", "title", "created_at"]
    search_fields = ["public_id", "title", "customer__full_name"]
    list_select_related = ["customer"]
    readonly_fields = ["public_id", "customer", "title", "created_at"]
    inlines = [MessageInline, ProposalInline]


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    list_display = ["conversation", "role", "created_at", "flagged"]
    list_filter = ["role"]
    readonly_fields = [
        "conversation",
        "role",
        "text",
        "ui_action",
        "payload",
        "client_message_id",
        "flagged",
        "created_at",
    ]


@admin.register(Dispute)
class DisputeTrailAdmin(DisputeAdmin):
    """The dispute page with its trail: the chat and the trace that led to it."""

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Dispute | None = None,
    ) -> HttpResponse:
        if obj is not None:
            context["trail"] = dispute_trail(dispute=obj)
        return super().render_change_form(request, context, add, change, form_url, obj)
