"""Daphne in a subprocess, for the tests that need a real server: the browser tests'
live server and the scale tests' two workers.

Daphne binds port 0 and the port the system gave it is read from its log, so no
two servers — of one run, of two pytest-xdist workers, of two runs — ever reach
for the same port, and there is no window between picking a port and binding it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LISTENING = re.compile(r"Listening on TCP address 127\.0\.0\.1:(\d+)")
START_SECONDS = 60


class LiveServer:
    """A running server: its process, its port and every line it has logged."""

    def __init__(self, process: subprocess.Popen[str], port: int, log: list[str]) -> None:
        self.process, self.port, self.log = process, port, log
        self.url = f"http://127.0.0.1:{port}"

    @property
    def address(self) -> tuple[str, int]:
        return ("127.0.0.1", self.port)

    def __call__(self, path: str = "/") -> str:
        return f"{self.url}{path}"

    def stop(self, timeout: float = 10) -> None:
        self.process.terminate()
        self.process.wait(timeout=timeout)


def daphne_start(env: dict[str, str]) -> LiveServer:
    """config.asgi on 127.0.0.1, a free port, with ``env`` as its whole environment;
    the test fails (with the log's tail) if it is not listening within a minute."""
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "0", "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    log: list[str] = []
    ready = threading.Event()
    port: list[int] = []

    def drain() -> None:  # keep the pipe empty for as long as the server runs
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            match = LISTENING.search(line)
            if match and not ready.is_set():
                port.append(int(match.group(1)))
                ready.set()
        ready.set()

    threading.Thread(target=drain, daemon=True).start()
    if not ready.wait(START_SECONDS) or not port:
        process.kill()
        process.wait()
        pytest.fail("Daphne did not start:\n" + "".join(log[-40:]))
    return LiveServer(process, port[0], log)
