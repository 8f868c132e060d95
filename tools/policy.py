"""Policy: may this tool call go ahead? Deterministic, and each "no" explains itself (G7, G8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from accounts.errors import DomainError
from tools.context import ActionContext
from tools.mandate import BLOCK_CARD, Grant, Mandate
from tools.specs import REGISTRY, ToolArgs, ToolSpec


@dataclass(frozen=True)
class Denial:
    code: str
    message: str
    # The customer's objects their words fit (several, so none was granted): the
    # chat shows them with their buttons, and a click is the mandate (G7).
    candidates: tuple[str, ...] = ()

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
    assert spec.check is not None and spec.grant is not None
    mandate = ctx.mandate
    if not mandate.allows(spec.operation):
        return Denial("not_in_mandate", _NOT_ASKED[spec.operation])
    try:
        # The grant first, from memory: a target the customer does not own, one
        # that does not exist and one they did not ask for all answer alike.
        grant = spec.grant(ctx, args)
        if grant is None:
            return _not_granted(mandate, spec.operation)
        if grant in ctx.spent:
            return Denial("mandate_spent", "This exact action has already been proposed in "
                          "this turn; the customer can confirm the card already shown.")
        spec.check(ctx, args)
    except DomainError as error:
        return Denial(error.code, error.message)
    return None


def _not_granted(mandate: Mandate, operation: str) -> Denial:
    granted = [g for g in mandate.grants if g.operation == operation]
    if granted:
        exact = "; ".join(_describe(g) for g in granted)
        return Denial("target_not_in_mandate", f"The customer asked for exactly this: {exact}. "
                      "Only that can be proposed, with those very arguments.")
    unbound = mandate.unbound_for(operation)
    detail = unbound.detail if unbound else ""
    if unbound is not None and unbound.candidates:
        return Denial("target_not_in_mandate", f"{_AMBIGUOUS[operation]} Candidates: "
                      + ", ".join(unbound.candidates) + ".", candidates=unbound.candidates)
    if unbound is not None and unbound.problem == "unsure":
        return Denial("target_not_in_mandate", f"The customer's message is not a plain request "
                      f"({detail}), so nothing will be proposed. {_OFFER[operation]}")
    return Denial("target_not_in_mandate", _NOT_IDENTIFIED[operation]
                  + (f" ({detail})" if detail else ""))


def _describe(grant: Grant) -> str:
    if grant.operation == BLOCK_CARD:
        return f"block card {grant.target}"
    amount = f"{grant.amount:.2f} KZT" if grant.amount is not None else "its full amount"
    return f"dispute {grant.target} for {amount}, reason {grant.reason}"


_NOT_ASKED = {
    "block_card": "The customer has not asked to block a card, so none will be proposed. "
                  "They can ask, or press Block next to the card.",
    "raise_dispute": "The customer has not asked to dispute a transaction, so no dispute "
                     "will be proposed. They can ask, or press Dispute on the statement row.",
}
_OFFER = {
    "block_card": "Tell them what you understood; they can press Block next to the card.",
    "raise_dispute": "Tell them what you understood; they can press Dispute on the "
                     "statement row.",
}
_AMBIGUOUS = {
    "block_card": "The customer's words fit more than one of their cards, so none will be "
                  "proposed: show them their cards; they can press Block on the one they mean.",
    "raise_dispute": "The customer's words fit more than one of their transactions, so none "
                     "will be proposed: show them the candidates; they can press Dispute on "
                     "the one they mean.",
}
_NOT_IDENTIFIED = {
    "block_card": "The customer's words do not identify one of their cards; ask for its last "
                  "four digits, or they can press Block next to the card.",
    "raise_dispute": "The customer's words do not identify one of their transactions (every "
                     "detail they gave must fit it); ask for the merchant, amount, date or "
                     "reference, or they can press Dispute on the statement row.",
}
