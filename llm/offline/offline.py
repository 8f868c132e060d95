"""A deterministic stand-in for an LLM, speaking the Chat Completions wire format.

``OfflineModel`` is an ``httpx2`` request handler: mount it on
``httpx2.MockTransport`` and the real openai SDK talks to it exactly as to a
remote server (JSON and SSE streaming, ``tool_calls``), so the agent code under
test is the code that runs in production. Same request in, same bytes out:
every id is a hash of the request, and nothing is random.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import httpx2

from llm.config import Personality

from .chat_request import parse_request, text_of
from .planner import Reply, plan_reply

logger = logging.getLogger(__name__)

CHAT_COMPLETIONS_PATH = "/v1/chat/completions"
# How many characters of tool-call arguments go in one stream chunk: small
# enough that every call's JSON arrives in several pieces, as from a real model.
ARGUMENT_CHUNK = 8

# One streamed content delta per word, keeping its trailing whitespace so the
# deltas join back into exactly the original text.
WORD_RE = re.compile(r"\s*\S+\s*|\s+")


class OfflineModel:
    """``(httpx2.Request) -> httpx2.Response`` for POST /v1/chat/completions."""

    def __init__(self, personality: Personality = "careful", today: date | None = None) -> None:
        if personality not in ("careful", "compromised"):
            raise ValueError(f"personality must be 'careful' or 'compromised'; got {personality!r}")
        self.personality: Personality = personality
        self.today = today

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        if request.method != "POST" or not path.endswith(CHAT_COMPLETIONS_PATH):
            return error_response(
                404,
                f"Unknown request URL: {request.method} {path}. "
                f"The offline model only serves POST {CHAT_COMPLETIONS_PATH}.",
                error_type="invalid_request_error",
                code="unknown_url",
            )
        try:
            body = json.loads(request.content or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return error_response(400, "The request body is not valid JSON.")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return error_response(400, "'messages' is required and must be a list.", param="messages")
        try:
            return self.complete(body, request_digest(request.content))
        except Exception:
            # A bug here must look like a server failure to the agent (so its
            # error handling is exercised), not crash inside the HTTP client.
            logger.exception("offline model failed on a request")
            return error_response(500, "The offline model failed.", error_type="server_error")

    def complete(self, body: dict[str, Any], digest: str) -> httpx2.Response:
        conversation = parse_request(body, self.today or date.today())
        reply = plan_reply(conversation, self.personality)
        if body.get("parallel_tool_calls") is False and len(reply.tool_calls) > 1:
            # One call per message when the caller asks; the rest come next round,
            # because the planner skips calls already made this turn.
            reply = Reply(tool_calls=reply.tool_calls[:1])
        completion = Completion(
            digest=digest,
            model=str(body.get("model") or "offline"),
            created=_timestamp(conversation.today),
            reply=reply,
            prompt_tokens=sum(_count_words(text_of(m)) for m in body["messages"] if isinstance(m, dict)),
        )
        if body.get("stream"):
            options = body.get("stream_options") or {}
            stream = completion.sse(include_usage=bool(options.get("include_usage")))
            return httpx2.Response(
                200,
                headers={"content-type": "text/event-stream", "cache-control": "no-cache"},
                content=b"".join(stream),
            )
        return httpx2.Response(200, json=completion.as_json())


class Completion:
    """One reply rendered as a ``chat.completion`` object or as SSE chunks."""

    def __init__(self, *, digest: str, model: str, created: int, reply: Reply, prompt_tokens: int) -> None:
        self.id = f"chatcmpl-{digest[:24]}"
        self.digest = digest
        self.model = model
        self.created = created
        self.reply = reply
        self.prompt_tokens = prompt_tokens

    @property
    def finish_reason(self) -> str:
        return "tool_calls" if self.reply.tool_calls else "stop"

    def tool_calls(self) -> list[dict[str, Any]]:
        return [
            {
                "id": self.call_id(index),
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": json.dumps(call.arguments, ensure_ascii=False),
                },
            }
            for index, call in enumerate(self.reply.tool_calls)
        ]

    def call_id(self, index: int) -> str:
        return "call_" + hashlib.sha256(f"{self.digest}:{index}".encode()).hexdigest()[:24]

    def usage(self) -> dict[str, int]:
        completion_tokens = _count_words(self.reply.text or "") + sum(
            _count_words(json.dumps(call.arguments)) for call in self.reply.tool_calls
        )
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": self.prompt_tokens + completion_tokens,
        }

    def as_json(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.reply.text, "refusal": None}
        if self.reply.tool_calls:
            message["tool_calls"] = self.tool_calls()
        return {
            **self._envelope("chat.completion"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": self.finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": self.usage(),
        }

    def sse(self, *, include_usage: bool) -> Iterator[bytes]:
        """Server-sent events as OpenAI sends them: role first, then content word
        by word or each tool call's id and name followed by its arguments in
        pieces, then the finish reason, then ``[DONE]``."""
        if self.reply.tool_calls:
            yield self._event({"role": "assistant", "content": None})
            for index, call in enumerate(self.tool_calls()):
                yield self._event(
                    {
                        "tool_calls": [
                            {
                                "index": index,
                                "id": call["id"],
                                "type": "function",
                                "function": {"name": call["function"]["name"], "arguments": ""},
                            }
                        ]
                    }
                )
                arguments = call["function"]["arguments"]
                for start in range(0, len(arguments), ARGUMENT_CHUNK):
                    piece = arguments[start : start + ARGUMENT_CHUNK]
                    yield self._event({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        else:
            yield self._event({"role": "assistant", "content": ""})
            for word in WORD_RE.findall(self.reply.text or ""):
                yield self._event({"content": word})
        yield self._event({}, finish_reason=self.finish_reason)
        if include_usage:
            yield _sse_line({**self._envelope("chat.completion.chunk"), "choices": [], "usage": self.usage()})
        yield b"data: [DONE]\n\n"

    def _event(self, delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        chunk = {
            **self._envelope("chat.completion.chunk"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}],
        }
        return _sse_line(chunk)

    def _envelope(self, kind: str) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": kind,
            "created": self.created,
            "model": self.model,
            "system_fingerprint": "fp_offline",
        }


def error_response(
    status: int,
    message: str,
    *,
    error_type: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
) -> httpx2.Response:
    """An error in OpenAI's shape, so the SDK raises its usual exception classes."""
    return httpx2.Response(
        status,
        json={"error": {"message": message, "type": error_type, "param": param, "code": code}},
    )


def request_digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _sse_line(payload: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n".encode()


def _timestamp(day: date) -> int:
    # "created" must be deterministic too: midnight UTC of the conversation's today.
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp())


def _count_words(text: str) -> int:
    return len(text.split())
