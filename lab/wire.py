"""The Chat Completions wire format the lab's in-process models answer in.

The scripted model and the adversary are ``httpx2.MockTransport`` handlers; the
real openai SDK parses what they send exactly as it parses a remote server's
stream, so the agent under test is the agent that runs in production.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2


def nullable_parameters(tools: list[dict[str, Any]]) -> dict[str, list[str]]:
    """tool name → its parameters that accept null. A model following the schema
    sends null for one it has no value for (the naive harness's ``account_id``)."""
    found: dict[str, list[str]] = {}
    for tool in tools:
        function = tool.get("function") or {}
        properties = (function.get("parameters") or {}).get("properties") or {}
        found[function.get("name", "")] = [
            name
            for name, schema in properties.items()
            if "null" in json.dumps(schema.get("type"))
            or any(option.get("type") == "null" for option in schema.get("anyOf", []))
        ]
    return found


def sse_response(
    *,
    content: str = "",
    tool_calls: list[dict[str, str]] | None = None,
    model: str = "lab-scripted",
    batched: bool = False,
) -> httpx2.Response:
    """One streamed completion: text, or tool calls (each ``{id, name, arguments}``),
    one chunk per call — or all in one chunk when ``batched``: the wire format allows
    it, and the SDK's per-chunk work made a hundred calls cost a second."""
    parts = [_chunk(model, {"role": "assistant", "content": "" if not tool_calls else None})]
    if content:
        parts.append(_chunk(model, {"content": content}))
    deltas = [
        {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["name"], "arguments": call["arguments"]},
        }
        for index, call in enumerate(tool_calls or [])
    ]
    for group in [deltas] if batched and deltas else [[delta] for delta in deltas]:
        parts.append(_chunk(model, {"tool_calls": group}))
    parts.append(_chunk(model, {}, "tool_calls" if tool_calls else "stop"))
    parts.append(b"data: [DONE]\n\n")
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=b"".join(parts))


def _chunk(model: str, delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {
        "id": "chatcmpl-lab",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body, ensure_ascii=False)}\n\n".encode()
