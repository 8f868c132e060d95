"""What a catalog entry is: everything about one tool, in one object (G2).

A tool is a ``ReadTool`` or a ``WriteTool`` (``Tool``, either). Each carries its
argument model (its docstring is the tool's description), its scopes and how it runs;
its class is its effect. A read also says what the audit trace keeps of its result
(``traced``). A write also carries, all required, its target, its business rules
(``check``), how the mandate binds a request for it and which grant authorises a call
(``bind``, ``grant``, ``from_click``), its summary, its button, its confirm-card and
result wording, its argument labels and the sentences its denials use. Policy, the
mandate, the chat and the docs read these, narrowing a ``Tool`` with ``isinstance``;
none of them names a tool.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

from openai import pydantic_function_tool
from pydantic import BaseModel, ConfigDict

from accounts.money import kzt_text
from tools.catalog.rows import Target

if TYPE_CHECKING:
    from accounts.models import Customer
    from tools.binding import Grant, Unbound
    from tools.context import ActionContext
    from tools.grammar import Request

# How an argument's value is shown to a person: a card's digits, money, a reason
# code's label, or as it is.
ArgKind = Literal["card", "money", "reason", "text"]


class ToolArgs(BaseModel):
    # Extra fields are an error, not something to ignore: a model that sends
    # account_id is told so (G1, G8).
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


@dataclass(frozen=True)
class ArgLabel:
    label: Any  # a lazy translation
    kind: ArgKind = "text"


@dataclass(frozen=True)
class Sentences:
    """What policy tells the model when a write is not granted (G7, G8)."""

    not_asked: str  # the customer did not ask for this operation at all
    offer: str  # the message was not a plain request: offer the button
    ambiguous: str  # the words fit several objects: show them
    not_identified: str  # the words fit none
    # The words fit none exactly (a typo, a wrong amount or date, nothing described,
    # not a plain request): the nearest are offered; "" uses ``ambiguous``.
    closest: str = ""


@dataclass(frozen=True)
class UiAction:
    """The button that asks for this tool on one of its target's rows."""

    label: Any  # "Block…"
    aria_label: Any  # "Block card ending %(target)s…"
    style: str  # the button's class
    # The customer's message a click writes, in the page's language, and the
    # same in English for the model's history.
    text: Callable[[Mapping[str, str]], str]
    history: Callable[[Mapping[str, str]], str]
    offered: Callable[[Mapping[str, object]], bool] = lambda row: True  # on which rows
    # On a row where the button would belong but the rules refuse it already
    # (a transaction past the dispute window): why, shown instead ("" otherwise).
    withheld: Callable[[Mapping[str, object]], str] = lambda row: ""
    extras: Mapping[str, frozenset[str]] = field(default_factory=dict)  # other fields a click sends


@dataclass(frozen=True)
class Outcome:
    """A write's result as the customer reads it: a sentence, labelled values, and what
    it means for them now (``after``: what happens next, said apart from the fact)."""

    sentence: str
    rows: tuple[tuple[str, str, ArgKind], ...] = ()
    after: str = ""


def keep_all(result: dict[str, Any]) -> dict[str, Any]:
    """A read's result as the audit trace keeps it: all of it."""
    return result


@dataclass(frozen=True, eq=False, kw_only=True)
class _Tool:
    """What every tool has."""

    name: str
    args: type[ToolArgs]
    scopes: frozenset[str]
    run: Callable[..., dict[str, Any]]
    autonomy: str = ""

    @property
    def description(self) -> str:
        return " ".join((self.args.__doc__ or "").split())

    def openai_schema(self) -> dict[str, Any]:
        return dict(pydantic_function_tool(self.args, name=self.name, description=self.description))


@dataclass(frozen=True, eq=False, kw_only=True)
class ReadTool(_Tool):
    """A tool that reads the customer's data; it runs when policy allows the call."""

    effect: ClassVar[Literal["read"]] = "read"
    # What the audit trace keeps of a result (G9).
    traced: Callable[[dict[str, Any]], dict[str, Any]] = keep_all


@dataclass(frozen=True, eq=False, kw_only=True)
class WriteTool(_Tool):
    """A tool that changes something: proposed when the mandate grants exactly the call,
    carried out when the customer confirms it."""

    effect: ClassVar[Literal["write"]] = "write"
    target: Target
    check: Callable[[ActionContext, Any], None]  # business rules
    grant: Callable[[ActionContext, Any], Grant | None]  # exactly this call
    bind: Callable[[Customer, Request, str], Grant | Unbound]  # a request
    from_click: Callable[[Mapping[str, str], str], Grant | None]
    summary: Callable[[ActionContext, Any], str]  # the record's English
    describe_grant: Callable[[Grant], str]  # a grant, to the model
    sentences: Sentences
    ui: UiAction
    action: Any  # the confirm card's action, a lazy format over the arguments
    outcome: Callable[[Mapping[str, object]], Outcome]
    arg_labels: Mapping[str, ArgLabel]
    # The call a click on a row's button means, exactly its grant: the chat proposes
    # it at once, without asking the model (may raise DomainError: not theirs). None
    # leaves the click to the model, which the mandate still holds to the grant.
    selected: Callable[[ActionContext, Grant], dict[str, Any]] | None = None

    @property
    def operation(self) -> str:
        """The mandate operation a write needs: its own name."""
        return self.name

    def action_text(self, args: Mapping[str, object]) -> str:
        """The confirm card's action over stored arguments, in the active language,
        amounts written its way ("" for arguments stored before a change of wording)."""
        values = {
            key: kzt_text(value) if self.arg_labels.get(key, ArgLabel(key)).kind == "money" else value
            for key, value in args.items()
        }
        try:
            return str(self.action) % values
        except (KeyError, TypeError, ValueError):
            return ""


Tool = ReadTool | WriteTool
_T = TypeVar("_T", ReadTool, WriteTool)


class Catalog(dict[str, Tool]):
    """The tools, by name, in the order the model is shown them."""

    def __init__(self, specs: list[Tool]) -> None:
        super().__init__((spec.name, spec) for spec in specs)
        self._schemas: tuple[tuple[Tool, ...], str] | None = None

    def writes(self) -> list[WriteTool]:
        return [spec for spec in self.values() if isinstance(spec, WriteTool)]

    def openai_tools(self) -> list[dict[str, Any]]:
        """The tool list sent to the model: a fresh copy of schemas built once per
        set of tools, since building them (Pydantic to JSON schema) cost a
        millisecond a turn. The copy is read back from their JSON, kept with them:
        a fifth of what ``copy.deepcopy`` of the same lists and dicts costs."""
        specs = tuple(self.values())
        if self._schemas is None or self._schemas[0] != specs:
            self._schemas = (specs, json.dumps([spec.openai_schema() for spec in specs]))
        schemas: list[dict[str, Any]] = json.loads(self._schemas[1])
        return schemas

    @contextmanager
    def registered(self, spec: _T) -> Iterator[_T]:
        """The catalog with one more tool, for as long as the block runs (tests)."""
        if spec.name in self:
            raise ValueError(f"{spec.name} is already in the catalog")
        self[spec.name] = spec
        try:
            yield spec
        finally:
            del self[spec.name]
