"""Typed errors that carry a code and a sentence a person can act on (G8).

Services and selectors raise these; the harness, views and admin turn them into
structured errors without inventing wording of their own. A top-level module of
its own, below every package, because every layer raises or reads them and none
owns them.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.functional import Promise


class DomainError(Exception):
    """``message`` is a sentence, usually lazy (``gettext_lazy``) with named
    placeholders filled from ``params``: it is read in the active language (the
    customer's, in a turn or a view), and ``english`` gives the record's. ``code``
    never changes with the language."""

    code = "error"

    def __init__(self, message: str | Promise, *, code: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.template = message
        self.params = params
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        if not self.params:
            return str(self.template)
        # A lazy value (an amount formatted for the language) is read now, too; a
        # lazy plural (ngettext_lazy) picks its form from its named number.
        return str(
            self.template
            % {
                name: str(value) if isinstance(value, Promise) else value
                for name, value in self.params.items()
            }
        )

    @property
    def english(self) -> str:
        """The sentence in English, for the audit trace and staff."""
        with translation.override("en"):
            return self.message

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotFound(DomainError):
    """Raised alike for a row that does not exist and one the customer does not own."""

    code = "not_found"


class InvalidInput(DomainError):
    code = "invalid_input"


class RuleViolation(DomainError):
    code = "rule_violation"


class Conflict(DomainError):
    code = "conflict"


class NotPermitted(DomainError):
    """A staff action asked of someone who is not staff with that permission."""

    code = "not_permitted"
