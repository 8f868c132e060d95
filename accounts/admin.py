"""Customers' data in admin. Support staff look; the only change they make here is
unblocking a card, with a note, through ``card_unblock``. Money, references, a card's
account, digits and status, transactions, and whose login a customer is are never
edited from admin, superusers included (tests/accounts/test_admin_read_only.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from accounts.models import Account, Card, CardUnblock, Customer, HourlyTotal, Transaction
from accounts.services import UNBLOCK_PERMISSION, card_unblock
from accounts.text import reveal_hidden
from errors import DomainError

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups
    from django.contrib.auth.models import User


_M = TypeVar("_M", bound=Model)


class _Evidence:
    """Records of what staff did: nobody adds, changes or deletes them from admin."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


def staff_member(request: HttpRequest) -> User:
    """Who acts in admin, for the staff services (``card_unblock``, ``dispute_review``),
    which check their permissions again. Admin lets in only active staff, who are
    users; anyone else (an anonymous visitor) is refused here too."""
    user = request.user
    if not isinstance(user, get_user_model()):
        raise PermissionDenied
    return user


class ReadOnlyAdmin(_Evidence, admin.ModelAdmin[_M]):
    """For records that are evidence (conversations, the trace, reviews): nobody adds,
    changes or deletes them from admin, superusers included. Here, at the bottom, so
    every package's admin may use it."""


@admin.register(Customer)
class CustomerAdmin(admin.ModelAdmin[Customer]):
    list_display = ["full_name", "user"]
    search_fields = ["full_name", "user__username"]
    list_select_related = ["user"]

    def get_readonly_fields(self, request: HttpRequest, obj: Customer | None = None) -> list[str]:
        # The login is who the customer is: another user here would sign someone else
        # in to this customer's accounts. Chosen once, when the customer is added.
        return ["user"] if obj is not None else []


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin[Account]):
    list_display = ["number", "customer", "currency", "balance"]
    search_fields = ["number", "customer__full_name"]
    list_select_related = ["customer__user"]

    def get_readonly_fields(self, request: HttpRequest, obj: Account | None = None) -> list[str]:
        # The balance is money: an account starts at zero and only transactions move it.
        # The number is what customers and statements name, and the customer whose it is.
        return ["customer", "number", "balance"] if obj is not None else ["balance"]


class CardUnblockInline(_Evidence, admin.TabularInline[CardUnblock, Card]):
    model = CardUnblock
    readonly_fields = fields = ("created_at", "staff_user", "note", "blocked_at", "block_key")
    extra = 0
    can_delete = False
    verbose_name_plural = "unblocked by staff"


class UnblockActionForm(ActionForm):
    note = forms.CharField(
        required=False,  # card_unblock refuses a missing note with a sentence of its own
        label="Note (required to unblock):",
        widget=forms.TextInput(attrs={"size": 60, "maxlength": 2000}),
    )


@admin.register(Card)
class CardAdmin(admin.ModelAdmin[Card]):
    list_display = ["masked", "account", "status", "blocked_at"]
    list_filter = ["status"]
    search_fields = ["last4", "account__number", "account__customer__full_name"]
    list_select_related = ["account"]
    # Cards are issued by the bank, not made here. A card's status changes only through
    # card_block (the customer's click) and card_unblock (staff, with a note); its account,
    # digits and brand are what the customer names it by: no field is edited.
    readonly_fields = ["account", "brand", "last4", "status", "blocked_at"]
    inlines = [CardUnblockInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    action_form = UnblockActionForm
    actions = ["unblock"]

    def has_unblock_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(UNBLOCK_PERMISSION)

    @admin.action(description="Unblock the selected cards (write the note first)", permissions=["unblock"])
    def unblock(self, request: HttpRequest, queryset: QuerySet[Card]) -> None:
        note = request.POST.get("note", "")
        staff = staff_member(request)
        for card in queryset:
            try:
                card_unblock(card=card, note=note, staff_user=staff)
            except DomainError as error:
                self.message_user(request, f"{card}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{card} is unblocked; your note is on record.", messages.SUCCESS)


@admin.register(CardUnblock)
class CardUnblockAdmin(_Evidence, admin.ModelAdmin[CardUnblock]):
    list_display = ["card", "staff_user", "created_at", "blocked_at"]
    search_fields = ["card__last4", "staff_user__username", "note"]
    list_select_related = ["card", "staff_user"]


# The merchant's text as staff see it: hidden and bidi control characters made visible.
_SHOWN = {"merchant": "merchant_shown", "description": "description_shown"}


@admin.register(Transaction)
class TransactionAdmin(_Evidence, admin.ModelAdmin[Transaction]):
    """A posted transaction is the bank's record: amounts, references and the merchant's
    text come from the card network and are never added, edited or deleted here."""

    list_display = ["reference", "posted_at", "merchant_shown", "amount", "account"]
    search_fields = ["reference", "merchant", "description"]
    date_hierarchy = "posted_at"
    list_select_related = ["account"]

    def get_fields(self, request: HttpRequest, obj: Transaction | None = None) -> _FieldGroups:
        return _transaction_fields()

    def get_readonly_fields(self, request: HttpRequest, obj: Transaction | None = None) -> tuple[str, ...]:
        return _transaction_fields()

    @admin.display(description="merchant", ordering="merchant")
    def merchant_shown(self, obj: Transaction) -> str:
        return reveal_hidden(obj.merchant)

    @admin.display(description="description")
    def description_shown(self, obj: Transaction) -> str:
        return reveal_hidden(obj.description)


@admin.register(HourlyTotal)
class HourlyTotalAdmin(_Evidence, admin.ModelAdmin[HourlyTotal]):
    """Derived data, kept by database triggers from the transactions (migration
    0004): read-only, as evidence is, since an edit here would make statements lie."""

    list_display = ["account", "hour", "count", "total_minor"]
    search_fields = ["account__number"]
    list_select_related = ["account"]


def _transaction_fields() -> tuple[str, ...]:
    return tuple(_SHOWN.get(f.name, f.name) for f in Transaction._meta.fields if f.name != "id")
