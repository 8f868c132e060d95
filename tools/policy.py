"""Policy: may this tool call go ahead? Deterministic, and each "no" explains itself (G7, G8)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from pydantic import ValidationError

from errors import DomainError
from tools.catalog import CATALOG, ReadTool, Tool, ToolArgs, WriteTool
from tools.context import ActionContext
from tools.mandate import Grant


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
    # How well the candidates fit: "several" fit every word, or only the "nearest".
    fit: str = ""
    # The customer asked for exactly another call: its exact arguments, so a model
    # can make that call instead (each is one grant; nothing more is allowed).
    asked_for: tuple[dict[str, str], ...] = ()

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
    return Denial(
        "invalid_arguments", f"The arguments for {name} are not valid: " + "; ".join(problems) + "."
    )


def parse_call(name: object, raw_args: object) -> tuple[Tool, ToolArgs] | Denial:
    """Find the tool and validate its arguments (both as the model sent them, checked
    here); no database work."""
    spec = CATALOG.get(name) if isinstance(name, str) else None
    if spec is None:
        known = ", ".join(CATALOG)
        return Denial("unknown_tool", f"There is no tool called {str(name)[:60]!r}; the tools are: {known}.")
    if not isinstance(raw_args, dict):
        return Denial("invalid_arguments", f"The arguments for {spec.name} must be a JSON object.")
    try:
        return spec, spec.args.model_validate(raw_args)
    except ValidationError as error:
        return validation_denial(spec.name, error)


def denial_reason(ctx: ActionContext, spec: Tool, args: ToolArgs) -> Denial | None:
    """None when the call may proceed (a read runs; a write becomes a proposal)."""
    if not ctx.has_scopes(spec.scopes):
        missing = ", ".join(sorted(spec.scopes - ctx.scopes))
        return Denial("missing_scope", f"This session may not use {spec.name} (it needs {missing}).")
    if isinstance(spec, ReadTool):
        return None
    mandate = ctx.mandate
    if not mandate.allows(spec.operation):
        return Denial("not_in_mandate", spec.sentences.not_asked)
    try:
        # The grant first, from memory: a target the customer does not own, one
        # that does not exist and one they did not ask for all answer alike.
        grant = spec.grant(ctx, args)
        if grant is None:
            return _not_granted(ctx, spec)
        if grant in ctx.spent:
            return Denial(
                "mandate_spent",
                _(
                    "This exact action has already been proposed in "
                    "this turn; the card already shown can be "
                    "confirmed."
                ),
            )
        spec.check(ctx, args)
    except DomainError as error:
        return Denial(error.code, error.message, english=error.english)
    return None


def _not_granted(ctx: ActionContext, spec: WriteTool) -> Denial:
    mandate, sentences, operation = ctx.mandate, spec.sentences, spec.operation
    granted = [g for g in mandate.grants if g.operation == operation]
    unbound = mandate.unbound_for(operation)
    if granted:
        exact = "; ".join(spec.describe_grant(g) for g in granted)
        # "Dispute Small and the Chocofamily one from the next day": one bound, one not —
        # the other's buttons come with the exact call, so no request is a dead end.
        others = unbound.candidates if unbound is not None else ()
        return Denial(
            "target_not_in_mandate",
            f"The customer asked for exactly this: {exact}. "
            "Only that can be proposed, with those very arguments."
            + (" For their other request, candidates: " + ", ".join(others) + "." if others else ""),
            asked_for=_granted_calls(ctx, spec, granted),
            candidates=others,
            fit="several" if unbound is not None and unbound.problem == "ambiguous" else "nearest",
        )
    detail = unbound.detail if unbound else ""
    unsure = f"The customer's message is not a plain request ({detail}), so nothing will be proposed."
    if unbound is not None and unbound.candidates:
        candidates = " Candidates: " + ", ".join(unbound.candidates) + "."
        if unbound.problem == "ambiguous":
            return Denial(
                "target_not_in_mandate",
                sentences.ambiguous + candidates,
                candidates=unbound.candidates,
                fit="several",
            )
        closest = sentences.closest or sentences.ambiguous
        plural = spec.target.plural
        lead = (
            unsure
            if unbound.problem == "unsure"
            else (
                f"The customer's words do not identify exactly one of their {plural} ({detail}), "
                "so none will be proposed."
            )
        )
        return Denial(
            "target_not_in_mandate",
            f"{lead} {closest}{candidates}",
            candidates=unbound.candidates,
            fit="nearest",
        )
    if unbound is not None and unbound.problem == "unsure":
        return Denial("target_not_in_mandate", f"{unsure} {sentences.offer}")
    return Denial("target_not_in_mandate", sentences.not_identified + (f" ({detail})" if detail else ""))


def _granted_calls(ctx: ActionContext, spec: WriteTool, grants: list[Grant]) -> tuple[dict[str, str], ...]:
    """The exact arguments of the calls these grants authorise."""
    if spec.selected is None:
        return ()
    calls = []
    for grant in grants:
        try:
            calls.append({k: str(v) for k, v in spec.selected(ctx, grant).items()})
        except DomainError:
            continue
    return tuple(calls)
