"""Filters for the dispute page's trail."""

from __future__ import annotations

import json
from typing import TypedDict

from django import template
from django.core.serializers.json import DjangoJSONEncoder

register = template.Library()


@register.filter
def as_json(value: object) -> str:
    """Stored JSON (arguments, results) as JSON text; the template escapes it."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)


class SourceText(TypedDict):
    """One text a proposal's tools read from outside the bank, as the trail lists it."""

    excerpt: str
    author: str
    tools: list[str]  # the tools that read it, in the order they did
    reads: int
    shown: list[str]  # why the customer's card quoted it, in staff's words


@register.filter
def unique_texts(sources: object) -> list[SourceText]:
    """A proposal's external sources, each text once (in the order first read),
    with the tools that read it, how often, and why the customer's card quoted it
    (if it did): a statement read twice and a search quote the same merchant's text
    three times, and staff need it once. Stored JSON, read as such: what is not a list,
    or not an object in it, is no source."""
    texts: dict[tuple[str, str], SourceText] = {}
    for source in sources if isinstance(sources, list) else []:
        if not isinstance(source, dict):
            continue
        excerpt = str(source.get("excerpt", ""))
        if not excerpt:
            continue
        key = (str(source.get("author", "")), excerpt)
        text = texts.setdefault(
            key, {"excerpt": excerpt, "author": key[0], "tools": [], "reads": 0, "shown": []}
        )
        text["reads"] += 1
        tool = str(source.get("tool", ""))
        if tool and tool not in text["tools"]:
            text["tools"].append(tool)
        # Why the customer's confirm card quoted it (tools/provenance.py marks them).
        for reason in source.get("shown") or []:
            words = SHOWN_BECAUSE.get(str(reason), str(reason))
            if words not in text["shown"]:
                text["shown"].append(words)
    return list(texts.values())


# The harness's marks (tools/provenance.py) as staff read them; disputes does not
# import the harness, so the two codes are spelt here.
SHOWN_BECAUSE = {
    "mentions_target": "names the disputed transaction",
    "instruction_this_turn": "reads like an instruction, read in the proposing turn",
}
