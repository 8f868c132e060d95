"""The model a scenario talks to, with every request body recorded.

All clients start from ``llm.make_client`` (the one seam) and are
copied onto an ``httpx2`` client whose request hook keeps each body sent — so
the judge can check that no other customer's data ever reached the model.
Offline personalities, scripted models and the adversary are served
in-process by a mock transport, exactly as in the app; ``configured`` is
whatever settings name.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx2
import openai
from django.conf import settings

from lab.adversary import AdversaryModel
from lab.schema import ScriptedModel, ScriptedReply
from lab.templating import Renderer
from lab.wire import nullable_parameters, sse_response
from llm import ModelConfig, Personality, make_client
from llm.offline import OfflineModel

SCRIPT_EXHAUSTED = "That is all I can do here."


class RequestLog:
    """Every request body sent to the model, in order."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def hook(self, request: httpx2.Request) -> None:
        request.read()
        try:
            self.bodies.append(json.loads(request.content or b"{}"))
        except ValueError:
            self.bodies.append({"unparsed": request.content.decode("utf-8", "replace")})

    def text(self) -> str:
        """All bodies as one string, non-ASCII kept (so a name is found as written)."""
        return "\n".join(json.dumps(body, ensure_ascii=False) for body in self.bodies)


def lab_model_client(model: str | ScriptedModel, renderer: Renderer, log: RequestLog) -> openai.OpenAI:
    if isinstance(model, ScriptedModel):
        config = ModelConfig(model="offline")
        transport: httpx2.BaseTransport | None = httpx2.MockTransport(
            ScriptedHandler(model.scripted, renderer)
        )
    elif model == "adversary":
        config = ModelConfig(model="offline")
        transport = httpx2.MockTransport(AdversaryModel())
    elif model == "configured":
        config = settings.BANKBOT_MODEL_CONFIG
        transport = httpx2.MockTransport(OfflineModel(config.personality)) if (config.is_offline) else None
    else:
        personality: Personality = "compromised" if model == "offline-compromised" else "careful"
        config = ModelConfig(model="offline-compromised" if personality == "compromised" else "offline")
        transport = httpx2.MockTransport(OfflineModel(personality))
    http_client = httpx2.Client(
        transport=transport, event_hooks={"request": [log.hook]}, timeout=config.timeout
    )
    return make_client(config).copy(http_client=http_client)


def model_label(model: str | ScriptedModel) -> str:
    if isinstance(model, ScriptedModel):
        return "scripted"
    if model == "configured":
        return f"configured ({settings.BANKBOT_MODEL_CONFIG.model})"
    return model


class ScriptedHandler:
    """Each request gets the next scripted reply, as Chat Completions SSE.

    Arguments are fitted to the schema on offer the way a model follows it: a
    nullable parameter the script leaves out is sent as null, and free text for
    a parameter with a closed list of values (a dispute's reason) becomes the
    listed value it spells, else the first one. Parameters the script names are
    sent as written, even ones the schema lacks — that is the point of a script
    that tries ``account_id``.
    """

    def __init__(self, replies: list[ScriptedReply], renderer: Renderer) -> None:
        self.replies = list(replies)
        self.renderer = renderer
        self.calls_made = 0

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content or b"{}")
        reply = self.replies.pop(0) if self.replies else ScriptedReply(text=SCRIPT_EXHAUSTED)
        if reply.text is not None:
            return sse_response(content=self.renderer.text(reply.text))
        offered = nullable_parameters(body.get("tools") or [])
        calls = []
        for call in reply.calls:
            self.calls_made += 1
            arguments: dict[str, Any] = {name: None for name in offered.get(call.tool, [])}
            arguments.update(self.renderer.deep(call.arguments))
            for name, values in enum_parameters(body.get("tools") or []).get(call.tool, {}).items():
                if isinstance(arguments.get(name), str) and arguments[name] not in values:
                    arguments[name] = _closest(arguments[name], values)
            calls.append(
                {
                    "id": f"call_lab_{self.calls_made}",
                    "name": call.tool,
                    "arguments": json.dumps(arguments, ensure_ascii=False),
                }
            )
        return sse_response(tool_calls=calls)


def enum_parameters(tools: list[dict[str, Any]]) -> dict[str, dict[str, list[str]]]:
    """tool → parameter → its allowed values, for parameters the schema closes."""
    found: dict[str, dict[str, list[str]]] = {}
    for tool in tools:
        function = tool.get("function") or {}
        properties = (function.get("parameters") or {}).get("properties") or {}
        found[function.get("name", "")] = {
            name: [str(v) for v in schema["enum"]]
            for name, schema in properties.items()
            if isinstance(schema, dict) and schema.get("enum")
        }
    return found


def _closest(written: str, values: list[str]) -> str:
    spelt = re.sub(r"[^a-z]+", "_", written.lower()).strip("_")
    return next((v for v in values if v == spelt), values[0])
