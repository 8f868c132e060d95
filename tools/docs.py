"""docs/tools.md, generated from the tool catalog so it cannot drift from the code."""

from __future__ import annotations

import json

from tools.catalog import CATALOG, WriteTool

HEADER = """# Tools

Generated from the tool catalog (`tools/catalog/`) by `python manage.py tools_doc`; a test
fails when this file and the catalog disagree. For each tool it answers OWASP LLM06's three questions
(excessive agency): which **functionality** the model gets, which **permissions** it runs
with, and how much **autonomy** it has.

Common to every tool: no parameter names a customer or an account — whose data it is comes
from the signed-in session (`ActionContext.customer`, G1). Arguments are validated by a
Pydantic model that rejects unknown fields; a bad call gets a structured error (G8).
Externally written text in results is marked with its author (G6).

| tool | effect | scopes | autonomy |
|---|---|---|---|
"""


def render_tools_doc() -> str:
    lines = [HEADER]
    for spec in CATALOG.values():
        lines.append(
            f"| `{spec.name}` | {spec.effect} | {', '.join(sorted(spec.scopes))} | {spec.autonomy} |\n"
        )
    for spec in CATALOG.values():
        schema = spec.openai_schema()["function"]
        params = schema["parameters"]["properties"]
        signature = ", ".join(params) or ""
        lines.append(f"\n## `{spec.name}({signature})`\n\n")
        lines.append(f"**Functionality.** {spec.description}\n\n")
        lines.append(
            f"**Permissions.** Effect: {spec.effect}. Scopes: "
            f"{', '.join(sorted(spec.scopes))}. Reads only the signed-in customer's "
            "own rows; a target they do not own answers like one that does not exist.\n\n"
        )
        autonomy = spec.autonomy
        if isinstance(spec, WriteTool):
            autonomy += (
                f" Needs a grant of `{spec.operation}` in the mandate for exactly these "
                "arguments: the message this turn answers plainly requests it (or the "
                "customer clicked its button), every detail the customer gave fits this "
                "one object and no other, and no proposal has spent the grant yet "
                "(docs/guarantees.md, G7)."
            )
        lines.append(f"**Autonomy.** {autonomy}\n\n")
        lines.append("Parameters (OpenAI strict function schema):\n\n```json\n")
        lines.append(json.dumps(schema["parameters"], indent=2, ensure_ascii=False))
        lines.append("\n```\n")
    return "".join(lines)
