"""python manage.py serve_fake_model — the offline model over HTTP on loopback, slowly.

For trying the chat's concurrency by hand or in a benchmark: point the app at it
with BANKBOT_MODEL=<any name> OPENAI_BASE_URL=http://127.0.0.1:PORT/v1.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from llm.config import Personality
from llm.offline.served import ModelServer


class Command(BaseCommand):
    help = (
        "Serve the offline model as an OpenAI-compatible endpoint on 127.0.0.1, answering "
        "each call after --delay seconds (a real model's latency)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8100)
        parser.add_argument("--delay", type=float, default=5.0, help="seconds before each answer (default 5)")
        parser.add_argument("--personality", choices=["careful", "compromised"], default="careful")

    def handle(
        self, *args: str, delay: float, personality: Personality, port: int, **options: object
    ) -> None:
        server = ModelServer(delay=delay, personality=personality, port=port)
        self.stdout.write(
            f"Fake model ({personality}, {delay} s a call) at {server.url}/v1 — Ctrl-C to stop."
        )
        self.stdout.flush()
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            self.stdout.write(f"Stopped after {server.served} calls (at most {server.peak} at once).")
        finally:
            server.server_close()
