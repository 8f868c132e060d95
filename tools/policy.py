"""Policy: may this tool call go ahead? Deterministic, and each "no" explains itself (G7, G8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from accounts.errors import DomainError
from tools.context import ActionContext
from tools.specs import REGISTRY, ToolArgs, ToolSpec


@dataclass(frozen=True)
class Denial:
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def validation_denial(name: str, error: ValidationError) -> Denial:
    problems = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        if item["type"] == "extra_forbidden":
            problems.append(f"{where} is not a parameter of {name}")
        else:
            problems.append(f"{where}: {item['msg']}")
    return Denial("invalid_arguments", f"The arguments for {name} are not valid: "
                  + "; ".join(problems) + ".")


def parse_call(name: str, raw_args: Any) -> tuple[ToolSpec, ToolArgs] | Denial:
    """Find the tool and validate its arguments; no database work."""
    spec = REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None:
        known = ", ".join(REGISTRY)
        return Denial("unknown_tool", f"There is no tool called {str(name)[:60]!r}; "
                      f"the tools are: {known}.")
    if not isinstance(raw_args, dict):
        return Denial("invalid_arguments",
                      f"The arguments for {name} must be a JSON object.")
    try:
        return spec, spec.args.model_validate(raw_args)
    except ValidationError as error:
        return validation_denial(name, error)


def denial_reason(ctx: ActionContext, spec: ToolSpec, args: ToolArgs) -> Denial | None:
    """None when the call may proceed (a read runs; a write becomes a proposal)."""
    if not ctx.has_scopes(spec.scopes):
        missing = ", ".join(sorted(spec.scopes - ctx.scopes))
        return Denial("missing_scope", f"This session may not use {spec.name} "
                      f"(it needs {missing}).")
    if spec.effect == "read":
        return None
    if not ctx.mandate.allows(spec.operation):
        return Denial("not_in_mandate", _NOT_ASKED[spec.operation])
    try:
        # Ownership and business rules before the target check: a target the
        # customer does not own is "not found", exactly like a missing one.
        assert spec.check is not None and spec.target is not None
        spec.check(ctx, args)
        if not spec.target(ctx, args):
            return Denial("target_not_in_mandate", _NOT_IDENTIFIED[spec.operation])
    except DomainError as error:
        return Denial(error.code, error.message)
    return None


_NOT_ASKED = {
    "block_card": "The customer has not asked to block a card, so none will be proposed. "
                  "They can ask, or press Block next to the card.",
    "raise_dispute": "The customer has not asked to dispute a transaction, so no dispute "
                     "will be proposed. They can ask, or press Dispute on the statement row.",
}
_NOT_IDENTIFIED = {
    "block_card": "The customer did not say which card to block; ask for its last four "
                  "digits, or they can press Block next to the card.",
    "raise_dispute": "The customer did not identify this transaction or amount; ask them "
                     "for the merchant, amount, date or reference, or they can press Dispute "
                     "on the statement row.",
}
