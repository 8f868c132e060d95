"""The fake model of benchmarks (f) and (g), in a process of its own.

``llm.offline.served.ModelServer`` (the offline model over loopback HTTP, each call
held ``--delay`` seconds before its first byte) plus requests for the benchmark,
answered at once and not counted as model calls: ``GET /bench/stats`` (the calls
served, held now and held at most at once since the last reset), ``POST
/bench/reset`` and ``POST /bench/tokens`` (body: a number; see below).

    python bench/fake_model.py --port 8246 --delay 5
    python bench/fake_model.py --port 8246 --delay 1 --tokens 300 --rate 50

With ``--tokens`` (or after ``POST /bench/tokens``) it streams like a real model: a
streamed answer in words (no tool call) becomes ``ANSWER``'s first ``tokens``
tokens, one server-sent event each, ``rate`` a second after the first (which comes
``delay`` seconds after the request), each event sent at its own time on a fixed
schedule, so a slow reader does not stretch the model's pace. A tool call's stream
is the offline model's, as it is. ``tokens`` 0 is the offline model's own answer.

Its own process, so that its hundreds of sleeping threads and its streaming do not
share a GIL with the benchmark's client or the worker; 127.0.0.1 only. It ends when
its parent closes its standard input (or with SIGTERM), so a benchmark that dies
leaves nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from llm.offline.served import ModelRequestHandler, ModelServer  # noqa: E402

# A support answer of the length a real model writes to an open question: prose, with
# the kinds of figures an answer holds that are not amounts (days, minutes, a count),
# so the output check reads it as it would a real answer and passes all of it.
ANSWER = (
    "Hello! I am BankBot, the bank's support assistant, and I am glad to help you today. "
    "Here is what I can do for you in this chat. I can show your statement for any month, "
    "with every payment, its merchant, its date and its amount, and a total for the month. "
    "I can list your cards and tell you which of them are active and which are blocked. I can "
    "find a payment for you if you remember roughly where or when it was made, and I can "
    "tell you your balance and how much you spent on groceries, travel or restaurants in a "
    "month. If a card is lost or stolen, tell me which one, and I will prepare a request to "
    "block it: you will see a card with a Confirm button, and nothing happens until you "
    "press it. The same goes for unblocking a card that you blocked yourself. If you do not "
    "recognise a payment, I can prepare a dispute for it: a dispute can be raised within 120 "
    "days of the payment, and our support team usually answers within 5 working days. You "
    "will see every change of its status here, in this chat, as soon as the team makes it. "
    "Please note that I never ask for your password, your card's full number or the code "
    "from a text message, and nobody from the bank ever will. If someone does, do not give "
    "it to them, and tell us. A confirm card can be pressed for 10 minutes after it appears; "
    "after that, just ask me again. You can write to me in English or in Russian, and I will "
    "answer in the language of the page. What would you like to do first? For example, you "
    "can ask me to show this month's statement, to list your cards, or to find a payment at "
    "a shop. I am here whenever you need me, day or night, and every answer I give you comes "
    "from the bank's own records, checked before you see it. Thank you for banking with us, "
    "and have a good day."
)
# One token a word with its following space, as a real model's tokens mostly are.
TOKENS = re.findall(r"\S+\s*", ANSWER) * 2  # enough for 300 and more


class StreamingServer(ModelServer):
    tokens = 0
    rate = 50.0
    words_sent = 0  # content events streamed since the last reset (either kind of answer)

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a worker that went away
            super().handle_error(request, client_address)

    def count_words(self, count: int) -> None:
        with self._lock:
            self.words_sent += count


class StatsHandler(ModelRequestHandler):
    server: StreamingServer

    def do_GET(self) -> None:
        if self.path == "/bench/stats":
            server = self.server
            with server._lock:
                stats = {
                    "served": server.served,
                    "in_flight": server.in_flight,
                    "peak": server.peak,
                    "delay": server.delay,
                    "tokens": server.tokens,
                    "rate": server.rate,
                    "words_sent": server.words_sent,
                }
            self.send(200, json.dumps(stats).encode(), "application/json")
            return
        super().do_GET()

    def do_POST(self) -> None:
        if self.path.startswith("/bench/"):
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            server = self.server
            with server._lock:
                if self.path == "/bench/reset":
                    server.served, server.peak = 0, server.in_flight
                    server.words_sent = 0
                elif self.path == "/bench/tokens":
                    server.tokens = int(body or b"0")
            self.send(200, b"{}", "application/json")
            return
        super().do_POST()

    def _stream(self, status: int, body: bytes) -> None:
        tokens = self.server.tokens
        events = [event for event in body.split(b"\n\n") if event]
        words = sum(b'"content": "' in e and b'"content": ""' not in e for e in events)
        if not tokens or not words:
            self.server.count_words(words)
            super()._stream(status, body)  # a tool call, or the offline model's own words
            return
        first = events[0]  # the role, with empty content
        chunk = json.loads(first.removeprefix(b"data: "))
        rest = [e for e in events[1:] if b'"content": "' not in e]  # finish, [DONE]
        try:
            self.send_response(status)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            self._chunk(first)
            started = time.monotonic()
            for index in range(tokens):
                due = started + index / self.server.rate
                if (wait := due - time.monotonic()) > 0:
                    time.sleep(wait)
                chunk["choices"][0]["delta"] = {"content": TOKENS[index % len(TOKENS)]}
                self._chunk(b"data: " + json.dumps(chunk, ensure_ascii=False).encode())
            self.server.count_words(tokens)
            for event in rest:
                self._chunk(event)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _chunk(self, event: bytes) -> None:
        piece = event + b"\n\n"
        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        self.wfile.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument(
        "--delay", type=float, default=5.0, help="seconds before the first byte (the first token)"
    )
    parser.add_argument(
        "--tokens", type=int, default=0, help="tokens a streamed answer has (0: the offline model's own)"
    )
    parser.add_argument("--rate", type=float, default=50.0, help="tokens a second")
    args = parser.parse_args()
    server = StreamingServer(delay=args.delay, port=args.port)
    server.tokens, server.rate = args.tokens, args.rate
    server.RequestHandlerClass = StatsHandler
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    print(f"ready {server.url}", flush=True)
    sys.stdin.read()  # until the benchmark closes the pipe, or ends
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
