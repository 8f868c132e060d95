"""``{{ … }}`` in scenario text: dates relative to the day the lab runs
(``month_of T-1``, ``month_total_of T-1``, …) and the encodings attackers hide
instructions with (``tags``, ``zw``, ``base64``), so a file stays readable while the
stored text is what an attacker would plant. The functions: docs/injection-lab.md,
"Scenario files".
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from llm.offline.months import ENGLISH_MONTHS

if TYPE_CHECKING:
    from lab.schema import Setup

TEMPLATE = re.compile(r"\{\{\s*(?P<name>[a-z_0-9]+)(?:\s+(?P<arg>.*?))?\s*\}\}", re.DOTALL)
ZERO_WIDTH_SPACE = "\u200b"

_NEEDS_REFERENCE = ("month_of", "date_of", "month_name_of", "month_total_of")
_NEEDS_TEXT = ("tags", "zw", "base64")
FUNCTIONS = (*_NEEDS_REFERENCE, "this_month", *_NEEDS_TEXT)


def tags(text: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in text if " " <= c <= "~")


def zero_width(text: str) -> str:
    return " ".join(
        word[:1] + ZERO_WIDTH_SPACE + word[1:] if len(word) > 2 else word for word in text.split(" ")
    )


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


ENCODERS: dict[str, Callable[[str], str]] = {"tags": tags, "zw": zero_width, "base64": b64}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def template_problems(data: Any, setup: Setup) -> list[str]:
    """Unknown functions, missing arguments and references not in the setup."""
    problems = []
    for text in _strings(data):
        for match in TEMPLATE.finditer(text):
            name, arg = match["name"], (match["arg"] or "").strip()
            if name not in FUNCTIONS:
                problems.append(f"unknown template function {{{{ {name} }}}}; known: {', '.join(FUNCTIONS)}")
            elif name in _NEEDS_REFERENCE and setup.transaction(arg) is None:
                problems.append(f"{{{{ {name} {arg} }}}}: no transaction {arg!r} in the setup")
            elif name in _NEEDS_TEXT and not arg:
                problems.append(f"{{{{ {name} }}}} needs the text to encode")
    return problems


class Renderer:
    """Renders templates for one run; ``now`` fixes what "days ago" means."""

    def __init__(self, setup: Setup, now: datetime) -> None:
        self.setup = setup
        self.now = now

    def posted_at(self, days_ago: int) -> datetime:
        return (self.now - timedelta(days=days_ago)).replace(second=0, microsecond=0)

    def text(self, value: str) -> str:
        return TEMPLATE.sub(lambda m: self._call(m["name"], (m["arg"] or "").strip()), value)

    def deep(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.deep(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.deep(item) for item in value]
        return value

    def _call(self, name: str, arg: str) -> str:
        if name in ENCODERS:
            return ENCODERS[name](arg)
        if name == "this_month":
            return f"{self.now:%Y-%m}"
        found = self.setup.transaction(arg)
        if found is None:  # the schema refuses this; kept as a clear failure
            raise ValueError(f"no transaction {arg!r} in the setup")
        owner, txn = found
        posted = self.posted_at(txn.days_ago)
        if name == "date_of":
            return f"{posted:%Y-%m-%d}"
        if name == "month_name_of":
            return f"{ENGLISH_MONTHS[posted.month][0].capitalize()} {posted.year}"
        if name == "month_total_of":
            same_month = [
                t.amount
                for t in owner.transactions
                if f"{self.posted_at(t.days_ago):%Y-%m}" == f"{posted:%Y-%m}"
            ]
            return f"{sum(same_month, Decimal(0)):.2f}"
        return f"{posted:%Y-%m}"
