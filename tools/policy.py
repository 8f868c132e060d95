"""Policy: may this tool call go ahead? Deterministic, and each "no" explains itself (G7, G8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from pydantic import ValidationError

from errors import DomainError
from tools.catalog import CATALOG, ToolArgs, ToolSpec
from tools.context import ActionContext
from tools.mandate import Mandate


@dataclass(frozen=True)
class Denial:
    code: str
    message: str
    # The customer's objects their words fit (several, so none was granted): the
    # chat shows them with their buttons, and a click is the mandate (G7).
    candidates: tuple[str, ...] = ()
    # The message in English for the audit trace, when ``message`` is in the
    # customer's language ("": the message is English already).
    english: str = ""

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
    spec = CATALOG.get(name) if isinstance(name, str) else None
    if spec is None:
        known = ", ".join(CATALOG)
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
    assert spec.check is not None and spec.grant is not None and spec.sentences is not None
    mandate = ctx.mandate
    if not mandate.allows(spec.operation):
        return Denial("not_in_mandate", spec.sentences.not_asked)
    try:
        # The grant first, from memory: a target the customer does not own, one
        # that does not exist and one they did not ask for all answer alike.
        grant = spec.grant(ctx, args)
        if grant is None:
            return _not_granted(mandate, spec)
        if grant in ctx.spent:
            return Denial("mandate_spent", _("This exact action has already been proposed in "
                                             "this turn; the card already shown can be "
                                             "confirmed."))
        spec.check(ctx, args)
    except DomainError as error:
        return Denial(error.code, error.message, english=error.english)
    return None


def _not_granted(mandate: Mandate, spec: ToolSpec) -> Denial:
    assert spec.sentences is not None and spec.describe_grant is not None
    sentences, operation = spec.sentences, spec.operation
    granted = [g for g in mandate.grants if g.operation == operation]
    if granted:
        exact = "; ".join(spec.describe_grant(g) for g in granted)
        return Denial("target_not_in_mandate", f"The customer asked for exactly this: {exact}. "
                      "Only that can be proposed, with those very arguments.")
    unbound = mandate.unbound_for(operation)
    detail = unbound.detail if unbound else ""
    if unbound is not None and unbound.candidates:
        return Denial("target_not_in_mandate", f"{sentences.ambiguous} Candidates: "
                      + ", ".join(unbound.candidates) + ".", candidates=unbound.candidates)
    if unbound is not None and unbound.problem == "unsure":
        return Denial("target_not_in_mandate", f"The customer's message is not a plain request "
                      f"({detail}), so nothing will be proposed. {sentences.offer}")
    return Denial("target_not_in_mandate", sentences.not_identified
                  + (f" ({detail})" if detail else ""))
