"""The offline model served over real HTTP on loopback, as slow as a real model.

``ModelServer`` answers ``POST /v1/chat/completions`` in the Chat Completions wire
format (JSON or a chunked SSE stream, with ``tool_calls``) from an ``OfflineModel``
personality, after ``delay`` seconds — the latency of a real model — so the chat's
concurrency can be tested and benchmarked without any model or outside network
(``manage.py serve_fake_model``; tests; ``bin/bench``). It listens on 127.0.0.1
only, and counts the requests it holds at once (``peak``).
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx2

from llm.config import Personality

from .offline import OfflineModel


class ModelServer(ThreadingHTTPServer):
    daemon_threads = True
    # Hundreds of customers' turns may connect at the same moment.
    request_queue_size = 1024

    def __init__(self, *, delay: float = 0.0, personality: Personality = "careful", port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), ModelRequestHandler)
        self.model = OfflineModel(personality)
        self.delay = delay
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0
        self.served = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}"  # bound to loopback in __init__

    def hold(self, path: str) -> None:
        """Wait as a real model thinks before its first byte. Subclasses may do more."""
        if self.delay:
            time.sleep(self.delay)

    def enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1
            self.served += 1


class ModelRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming, like a real API
    server: ModelServer

    def do_GET(self) -> None:
        self._serve(b"")

    def do_POST(self) -> None:
        self._serve(self.rfile.read(int(self.headers.get("content-length", 0))))

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: a benchmark sends thousands of requests

    def _serve(self, body: bytes) -> None:
        self.server.enter()
        try:
            self.server.hold(self.path)
            if self.answer_early():
                return
            request = httpx2.Request(
                self.command, self.server.url + self.path, headers=dict(self.headers), content=body
            )
            response = self.server.model(request)
            content_type = response.headers.get("content-type", "application/json")
            if content_type.startswith("text/event-stream"):
                self._stream(response.status_code, response.content)
            else:
                self.send(response.status_code, response.content, content_type)
        finally:
            self.server.leave()

    def answer_early(self) -> bool:
        """A subclass's chance to answer instead of the model (True: answered)."""
        return False

    def send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and left; nothing to tell it

    def _stream(self, status: int, body: bytes) -> None:
        """One HTTP chunk per server-sent event, flushed as it would be live."""
        try:
            self.send_response(status)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for event in body.split(b"\n\n"):
                if event:
                    piece = event + b"\n\n"
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


def serve_in_thread(server: ModelServer) -> threading.Thread:
    """Serve until ``server.shutdown()``; a short poll interval makes that prompt."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return thread
