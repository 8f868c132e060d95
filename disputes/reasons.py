"""Why a customer disputes a payment: a fixed set of codes, never free text, so
nothing a model or a merchant wrote can ride into the record (G7). Kept apart
from the models so the harness's grammar can read it without the app registry."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

REASON_LABELS = {
    "not_recognised": _("I don't recognise this payment"),
    "charged_twice": _("I was charged twice"),
    "not_received": _("I did not receive the goods or service"),
    "wrong_amount": _("The amount is wrong"),
    "cancelled": _("I cancelled and was still charged"),
}
DISPUTE_REASONS: tuple[str, ...] = tuple(REASON_LABELS)
