"""Disputes in admin: the support staff's queue and the review workflow.

Nobody edits a dispute's fields here, superusers included: the only change is a
review step (a status move with a note), made by ``dispute_review``. The page is
registered by bankbot/admin.py, which adds the trail of how the dispute came to be.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.timesince import timesince

from accounts.admin import ReadOnlyAdmin, staff_member
from accounts.text import reveal_hidden
from disputes.models import Dispute, DisputeReview
from disputes.selectors import dispute_queue_ordering
from disputes.services import REVIEW_PERMISSION, dispute_review, dispute_review_moves
from errors import DomainError


class DisputeAdmin(ReadOnlyAdmin[Dispute]):
    list_display = ["reference", "customer", "transaction_reference", "merchant", "amount", "status", "age"]
    list_filter = ["status", "created_at"]
    search_fields = [
        "reference",
        "customer__full_name",
        "customer__user__username",
        "transaction__reference",
        "transaction__merchant",
    ]
    # Customer.__str__ names the user: one join instead of a query per row.
    list_select_related = ["customer__user", "transaction"]
    readonly_fields = fields = (
        "reference",
        "status",
        "customer",
        "transaction",
        "amount",
        "reason",
        "idempotency_key",
        "created_at",
    )

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        return dispute_queue_ordering()

    # ReadOnlyAdmin: no dispute is added, edited or deleted from admin. Customers
    # open them by confirming in the chat; staff move them only through the
    # review form.

    def has_review_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff and request.user.has_perm(REVIEW_PERMISSION)

    @admin.display(description="transaction", ordering="transaction__reference")
    def transaction_reference(self, obj: Dispute) -> str:
        return obj.transaction.reference

    @admin.display(description="merchant", ordering="transaction__merchant")
    def merchant(self, obj: Dispute) -> str:
        return reveal_hidden(obj.transaction.merchant)

    @admin.display(description="age", ordering="created_at")
    def age(self, obj: Dispute) -> str:
        return timesince(obj.created_at, timezone.now(), depth=1)

    def get_urls(self) -> list[Any]:
        review = path(
            "<path:object_id>/review/",
            self.admin_site.admin_view(self.review_view),
            name="disputes_dispute_review",
        )
        return [review, *super().get_urls()]  # before the change page's catch-all

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Dispute | None = None,
    ) -> HttpResponse:
        if obj is not None and self.has_review_permission(request):
            context["review_moves"] = dispute_review_moves(obj.status)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def review_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """POST: move the dispute one step, with the note, through dispute_review."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_review_permission(request):
            raise PermissionDenied
        dispute = self.get_object(request, unquote(object_id))
        if dispute is None:  # as the change page answers an id that does not exist
            self.message_user(
                request,
                f"Dispute with ID “{object_id}” doesn’t exist. Perhaps it was deleted?",
                messages.WARNING,
            )
            return HttpResponseRedirect(reverse("admin:index", current_app=self.admin_site.name))
        before = dispute.get_status_display()
        try:
            dispute_review(
                dispute=dispute,
                to_status=request.POST.get("to_status", ""),
                note=request.POST.get("note", ""),
                staff_user=staff_member(request),
                customer_note=request.POST.get("customer_note", ""),
            )
        except DomainError as error:
            self.message_user(request, error.message, messages.ERROR)
        else:
            moved = f"{dispute} moved from {before} to {dispute.get_status_display()}."
            self.log_change(request, dispute, moved)  # also in the page's History
            self.message_user(request, moved, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:disputes_dispute_change", args=[dispute.pk]))


@admin.register(DisputeReview)
class DisputeReviewAdmin(ReadOnlyAdmin[DisputeReview]):
    list_display = ["dispute", "from_status", "to_status", "staff_user", "created_at"]
    list_filter = ["to_status"]
    search_fields = ["dispute__reference", "staff_user__username", "note"]
    list_select_related = ["dispute", "staff_user"]
    # Staff-written notes, the customer's one included, with their hidden and bidi
    # control characters made visible, as the dispute's trail shows them.
    readonly_fields = fields = (
        "dispute",
        "from_status",
        "to_status",
        "note_shown",
        "customer_note_shown",
        "staff_user",
        "created_at",
    )

    @admin.display(description="note")
    def note_shown(self, obj: DisputeReview) -> str:
        return reveal_hidden(obj.note)

    @admin.display(description="note for the customer")
    def customer_note_shown(self, obj: DisputeReview) -> str:
        return reveal_hidden(obj.customer_note)
