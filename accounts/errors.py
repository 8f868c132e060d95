"""Moved to the top-level ``errors`` module; this name stays only until the two
modules being edited elsewhere (disputes/services.py, bankbot/lab/runner.py) follow."""

from errors import Conflict, DomainError, InvalidInput, NotFound, NotPermitted, RuleViolation

__all__ = ["Conflict", "DomainError", "InvalidInput", "NotFound", "NotPermitted", "RuleViolation"]
