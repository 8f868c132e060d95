"""A model that writes its answer as a slow real one does, over loopback HTTP: word
by word, one server-sent event a chunk, flushed as it goes — and held before its
last sentence until the test lets it go on. Tests synchronise on what the server
has written (``held``, ``last_written``), never on how long anything took.

``PacedServer`` serves any request with the same text answer in the Chat
Completions streaming wire format, so the real openai SDK (in the test's process
or in a Daphne the test started) reads it as it would read OpenAI.
"""

from __future__ import annotations

import json
import re
import threading

from llm.offline.served import ModelRequestHandler, ModelServer

# A broken test gives up after this long instead of hanging the suite.
CAP_SECONDS = 20.0


class PacedServer(ModelServer):
    def __init__(self, sentences: list[str]) -> None:
        super().__init__()
        self.RequestHandlerClass = PacedRequestHandler
        self.sentences = sentences
        self.held = threading.Event()  # every sentence but the last has been written
        self.go_on = threading.Event()  # the test lets the last sentence be written
        self.last_written = threading.Event()

    def hold(self, path: str) -> None:
        """Before the last sentence: wait for the test (or the cap)."""
        self.held.set()
        self.go_on.wait(CAP_SECONDS)


def _event(delta: dict[str, object], finish: str | None = None) -> bytes:
    chunk = {
        "id": "chatcmpl-paced",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "paced",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
    }
    return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()


class PacedRequestHandler(ModelRequestHandler):
    server: PacedServer

    def _serve(self, body: bytes) -> None:
        self.server.enter()
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            self._write(_event({"role": "assistant", "content": ""}))
            *first, last = self.server.sentences
            for sentence in first:
                self._words(sentence)
            self.server.hold(self.path)
            self._words(last)
            self.server.last_written.set()
            self._write(_event({}, "stop"))
            self._write(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.server.leave()

    def _words(self, text: str) -> None:
        for word in re.findall(r"\S+\s*", text):
            self._write(_event({"content": word}))

    def _write(self, event: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
        self.wfile.flush()
