"""One-paragraph explanations of G1–G11 for trainees (translated: see tools/locale)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

EXPLANATIONS = {
    "G1": _(
        "Identity comes from the session. No tool takes a customer or an account, and "
        "someone else's card or transaction answers exactly like one that does not exist."
    ),
    "G2": _(
        "Least agency: a few narrow tools, each declaring whether it reads or writes. "
        "Reads cannot write; writes only ever become proposals."
    ),
    "G3": _(
        "Confirmation lives in the harness. A write runs only when the customer presses "
        "Confirm on the card; the model has no way to press it."
    ),
    "G4": _(
        "The click is bound to the exact parameters shown; anything changed afterwards "
        "is refused and needs a new click."
    ),
    "G5": _(
        "Idempotency: one key per confirmation, so a retry never acts twice, and the "
        "database allows one open dispute per transaction."
    ),
    "G6": _(
        "Tool output is data, never a command. Text written by merchants or staff is "
        "marked with its author and never dispatched."
    ),
    "G7": _(
        "The mandate: a write is proposed only if the customer asked for that operation "
        "on a target they identified, and the bank's rules hold (amount, 120 days; only "
        "a block the customer made is theirs to lift)."
    ),
    "G8": _(
        "Structured results and helpful errors: every refusal carries a code and a "
        "sentence a person can act on."
    ),
    "G9": _("Everything is traced: every call, decision and reason is kept, append-only."),
    "G10": _(
        "Output verification: amounts must match the records, and links or images "
        "to other websites are removed from the answer."
    ),
    "G11": _(
        "Nothing is lost: messages are stored before the model is called, and a "
        "failure leaves a clear message and a retry."
    ),
}
