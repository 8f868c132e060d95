"""JSON as the harness stores it and answers with it: what a ``JSONField`` holds once
written, and what ``json.loads`` gives back. A value of this type has no ``External``
in it (tools/provenance.py) and nothing JSON cannot say."""

from __future__ import annotations

from typing import TypeAlias

JSONValue: TypeAlias = str | int | float | bool | None | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject: TypeAlias = dict[str, JSONValue]
