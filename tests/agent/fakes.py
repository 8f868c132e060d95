"""A scripted model for agent tests: each request gets the next scripted reply,
served through the real SDK over httpx2.MockTransport in Chat Completions'
streaming wire format."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import openai

Reply = dict[str, Any] | Callable[[httpx2.Request], httpx2.Response]


def text(content: str) -> dict[str, Any]:
    return {"content": content}


def call(name: str, arguments: Any, call_id: str = "call_1") -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"tool_calls": [{"id": call_id, "name": name, "arguments": raw}]}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n".encode()


def sse(reply: dict[str, Any]) -> httpx2.Response:
    parts = [_chunk({"role": "assistant", "content": ""})]
    for word in (reply.get("content") or "").split(" "):
        if word:
            parts.append(_chunk({"content": word + " "}))
    for index, tool in enumerate(reply.get("tool_calls", [])):
        parts.append(
            _chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": tool["id"],
                            "type": "function",
                            "function": {"name": tool["name"], "arguments": tool["arguments"]},
                        }
                    ]
                }
            )
        )
    parts.append(_chunk({}, reply.get("finish") or ("tool_calls" if reply.get("tool_calls") else "stop")))
    parts.append(b"data: [DONE]\n\n")
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=b"".join(parts))


class ScriptedModel:
    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(json.loads(request.content))
        reply = self.replies.pop(0) if self.replies else text("(script exhausted)")
        return reply(request) if callable(reply) else sse(reply)

    def client(self) -> openai.OpenAI:
        return openai.OpenAI(
            api_key="test",
            base_url="http://scripted.invalid/v1",
            http_client=httpx2.Client(transport=httpx2.MockTransport(self)),
            max_retries=0,
            timeout=5,
        )


def json_reply(content: str, finish: str = "stop") -> Callable[[httpx2.Request], httpx2.Response]:
    """A non-streamed completion (what structured-output calls receive)."""

    def reply(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(
            200,
            json={
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": finish,
                        "message": {"role": "assistant", "content": content},
                    }
                ],
            },
        )

    return reply
