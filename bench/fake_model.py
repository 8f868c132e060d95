"""The slow fake model of benchmark (f), in a process of its own.

``bankbot.offline.served.ModelServer`` (the offline model over loopback HTTP, each call
held ``--delay`` seconds) plus two requests for the benchmark, answered at once and
not counted as model calls: ``GET /bench/stats`` (the calls served, held now and
held at most at once since the last reset) and ``POST /bench/reset``.

    python bench/fake_model.py --port 8246 --delay 5

Its own process, so that its 200 sleeping threads and its streaming do not share a
GIL with the benchmark's client; 127.0.0.1 only. It ends when its parent closes
its standard input (or with SIGTERM), so a benchmark that dies leaves nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bankbot.settings")

import django  # noqa: E402

django.setup()

from bankbot.offline.served import ModelRequestHandler, ModelServer  # noqa: E402


class StatsHandler(ModelRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/bench/stats":
            server = self.server
            with server._lock:
                stats = {"served": server.served, "in_flight": server.in_flight,
                         "peak": server.peak, "delay": server.delay}
            self.send(200, json.dumps(stats).encode(), "application/json")
            return
        super().do_GET()

    def do_POST(self) -> None:
        if self.path == "/bench/reset":
            self.rfile.read(int(self.headers.get("content-length", 0)))
            server = self.server
            with server._lock:
                server.served, server.peak = 0, server.in_flight
            self.send(200, b"{}", "application/json")
            return
        super().do_POST()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay", type=float, default=5.0)
    args = parser.parse_args()
    server = ModelServer(delay=args.delay, port=args.port)
    server.RequestHandlerClass = StatsHandler
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                     daemon=True).start()
    print(f"ready {server.url}", flush=True)
    sys.stdin.read()  # until the benchmark closes the pipe, or ends
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
