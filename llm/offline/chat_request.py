"""The offline model's view of one Chat Completions request.

Turns the wire-format ``messages`` and ``tools`` into a few plain objects: the
customer's latest words, the tools on offer, and the tool calls made (with their
results) since those words. The model acts on that turn only; earlier turns are
history.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from tools.json_types import JSONValue  # the request's JSON: calls' arguments, tools' results

# The harness states the date in its system prompt so relative months
# ("last month") mean the same thing to the model, the mandate and the tests.
TODAY_RE = re.compile(r"Today is (\d{4})-(\d{2})-(\d{2})\.?")

WRITE_TOOLS = frozenset({"block_card", "unblock_card", "raise_dispute"})


@dataclass(frozen=True)
class OfferedTool:
    """One offered function tool: its name and JSON-schema parameters."""

    name: str
    properties: dict[str, Any]
    # The schema's "$defs": an enum of a Python Enum type sits there, behind a "$ref".
    definitions: dict[str, Any] = field(default_factory=dict)

    def accepts(self, parameter: str) -> bool:
        return parameter in self.properties

    def choices(self, parameter: str) -> list[str]:
        """The values a parameter is limited to (its enum), or [] when it is free."""
        return _enum(self.properties.get(parameter, {}), self.definitions)

    def fit(self, values: dict[str, JSONValue]) -> dict[str, JSONValue]:
        """Arguments shaped exactly as the schema asks: every property present
        (strict schemas require that), nothing extra. Missing values become null
        where the schema allows it, else an empty string."""
        fitted: dict[str, JSONValue] = {}
        for name, schema in self.properties.items():
            value = values.get(name)
            fitted[name] = value if value is not None else (None if _nullable(schema) else "")
        return fitted


def _enum(schema: dict[str, Any], definitions: dict[str, Any]) -> list[str]:
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        schema = _dict(definitions.get(reference.removeprefix("#/$defs/")))
    values = schema.get("enum")
    if isinstance(values, list):
        return [value for value in values if isinstance(value, str)]
    for option in _dicts(schema.get("anyOf")):
        if found := _enum(option, definitions):
            return found
    return []


def _nullable(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_nullable(option) for option in _dicts(schema.get("anyOf")))


@dataclass
class Exchange:
    """A tool call the model made this turn and, once it is back, its result."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None = None
    # Tool output that is not JSON; kept so nothing the harness sent is lost.
    raw_result: str | None = None

    @property
    def status(self) -> str | None:
        return self.result.get("status") if self.result else None

    @property
    def is_write(self) -> bool:
        return self.name in WRITE_TOOLS

    @property
    def data(self) -> dict[str, Any]:
        data = self.result.get("data") if self.result else None
        return data if isinstance(data, dict) else {}

    def transactions(self) -> list[dict[str, Any]]:
        rows = self.data.get("transactions")
        if rows is None and self.result and isinstance(self.result.get("data"), list):
            rows = self.result["data"]
        return [row for row in rows or [] if isinstance(row, dict)]


@dataclass
class ChatRequest:
    """One Chat Completions request as the offline model reads it: this turn's words,
    the tools on offer, the calls made since."""

    today: date
    tools: dict[str, OfferedTool]
    user_text: str
    exchanges: list[Exchange] = field(default_factory=list)
    # Tool calls of earlier turns: history, still in the model's context.
    earlier: list[Exchange] = field(default_factory=list)
    # How many assistant messages with tool calls this turn already has.
    rounds: int = 0

    def offers(self, tool: str) -> bool:
        return tool in self.tools

    def results(self) -> Iterator[Exchange]:
        return (exchange for exchange in self.exchanges if exchange.result is not None)

    def last_result(self, tool: str) -> Exchange | None:
        found = [e for e in self.results() if e.name == tool and e.status == "ok"]
        return found[-1] if found else None


def parse_request(body: dict[str, Any], fallback_today: date) -> ChatRequest:
    messages = _dicts(body.get("messages"))
    tools = _offered_tools(body)
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    conversation = ChatRequest(
        today=_today(messages, fallback_today),
        tools=tools,
        user_text=text_of(messages[last_user]) if last_user >= 0 else "",
    )
    conversation.earlier, _ = _exchanges(messages[: max(last_user, 0)])
    conversation.exchanges, conversation.rounds = _exchanges(messages[last_user + 1 :])
    return conversation


def _exchanges(messages: list[dict[str, Any]]) -> tuple[list[Exchange], int]:
    """The tool calls in these messages with their results, and how many
    assistant messages made calls."""
    exchanges: list[Exchange] = []
    rounds = 0
    by_id: dict[str, Exchange] = {}
    for message in messages:
        role = message.get("role")
        if role == "assistant" and _dicts(message.get("tool_calls")):
            rounds += 1
            for call in _dicts(message["tool_calls"]):
                exchange = _exchange_from_call(call)
                by_id[exchange.call_id] = exchange
                exchanges.append(exchange)
        elif role == "tool":
            _attach_result(message, by_id, exchanges)
        # Later system notes (a confirmation's outcome, say) need no reply of
        # their own; the harness sends them for context, so they are skipped.
    return exchanges, rounds


def text_of(message: dict[str, Any]) -> str:
    """Message content as text; content may be a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict)]
        return "\n".join(part for part in parts if isinstance(part, str))
    return ""


def _today(messages: list[dict[str, Any]], fallback: date) -> date:
    for message in messages:
        if message.get("role") in ("system", "developer"):
            match = TODAY_RE.search(text_of(message))
            if match:
                try:
                    return date(int(match[1]), int(match[2]), int(match[3]))
                except ValueError:
                    continue
    return fallback


def _offered_tools(body: dict[str, Any]) -> dict[str, OfferedTool]:
    # tool_choice "none" means: answer in words. Offering nothing does exactly that.
    if body.get("tool_choice") == "none":
        return {}
    tools: dict[str, OfferedTool] = {}
    for tool in _dicts(body.get("tools")):
        function = _dict(tool.get("function"))
        if not function or tool.get("type", "function") != "function":
            continue
        parameters = _dict(function.get("parameters"))
        properties = _dict(parameters.get("properties"))
        name = str(function.get("name", ""))
        tools[name] = OfferedTool(
            name,
            {key: _dict(schema) for key, schema in properties.items()},
            _dict(parameters.get("$defs")),
        )
    return tools


# The request comes from outside: every container is checked before use, so a
# malformed body gets a sensible answer instead of a server error.
def _dicts(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _exchange_from_call(call: dict[str, Any]) -> Exchange:
    function = _dict(call.get("function"))
    raw_arguments = function.get("arguments")
    try:
        arguments = json.loads(raw_arguments) if isinstance(raw_arguments, str) else {}
    except json.JSONDecodeError:
        arguments = {}
    return Exchange(
        call_id=str(call.get("id", "")),
        name=str(function.get("name", "")),
        arguments=arguments if isinstance(arguments, dict) else {},
    )


def _attach_result(message: dict[str, Any], by_id: dict[str, Exchange], exchanges: list[Exchange]) -> None:
    content = text_of(message)
    try:
        result = json.loads(content)
    except json.JSONDecodeError:
        result = None
    if not isinstance(result, dict):
        result = {"status": "unknown"}
        raw: str | None = content
    else:
        raw = None
    exchange = by_id.get(str(message.get("tool_call_id", "")))
    if exchange is None:
        # A result with no call we know of (a harness that rewrites history):
        # keep it, named by the tool it says it came from.
        exchange = Exchange(
            call_id=str(message.get("tool_call_id", "")),
            name=str(result.get("tool", "")),
            arguments={},
        )
        exchanges.append(exchange)
    exchange.result = result
    exchange.raw_result = raw


def external_value(field_value: JSONValue) -> str:
    """The text of a field that may be plain or wrapped as external text."""
    if isinstance(field_value, dict):
        return str(field_value.get("external_text", ""))
    return "" if field_value is None else str(field_value)
