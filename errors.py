"""Typed errors that carry a code and a sentence a person can act on (G8).

Services and selectors raise these; the harness, views and admin turn them into
structured errors without inventing wording of their own. A top-level module of
its own, below every package, because every layer raises or reads them and none
owns them.
"""

from __future__ import annotations


class DomainError(Exception):
    code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

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
