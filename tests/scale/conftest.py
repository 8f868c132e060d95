"""Scale-out tests: several OS processes, one PostgreSQL database.

Each "worker" is a separate Python process (tests/scale/worker.py) running the
real harness against the test run's own PostgreSQL database, so what holds here
holds across ASGI workers and machines: only the database is shared. Starting
them, the relay and the customers they click for are in tests/scale/helpers.py.
"""

from __future__ import annotations

import os
import socket
import threading

import pytest

from accounts.models import Customer
from bankbot.models import Conversation
from tests.daphne import LiveServer, daphne_start
from tests.scale.helpers import ROOT, DatabaseLink, database_url, make_scale_customer, wait_healthy
from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_for


@pytest.fixture
def scale_customers(db: None) -> list[Customer]:
    return [make_scale_customer(index) for index in range(4)]


@pytest.fixture
def harness_for():
    """harness_for(conversation, "what the customer wrote") → a GuardedHarness."""

    def build(conversation: Conversation, text: str = "") -> GuardedHarness:
        mandate = mandate_for(customer=conversation.customer, text=text)
        return GuardedHarness(action_context_for(conversation.customer.user, conversation, mandate=mandate))

    return build


@pytest.fixture
def database_link(monkeypatch: pytest.MonkeyPatch):
    # The relay itself connects to PostgreSQL from this process: loopback only.
    link = DatabaseLink()
    yield link
    link.cut()


@pytest.fixture
def worker_env() -> dict[str, str]:
    """More environment for the live workers (a test module overrides it: its model)."""
    return {}


@pytest.fixture
def two_live_workers(transactional_db, worker_env):
    """Two Daphne worker processes serving the app from this run's PostgreSQL
    database, each on its own free loopback port (what nginx spreads requests over)."""
    env = {
        **os.environ,
        **worker_env,
        "DATABASE_URL": database_url(),
        "DB_CONN_MAX_AGE": "0",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONPATH": str(ROOT),
    }
    workers: list[LiveServer] = []
    try:
        for _ in range(2):
            workers.append(daphne_start(env))
        for worker in workers:
            wait_healthy(worker)
        yield workers
    finally:
        for worker in workers:
            worker.process.terminate()
        for worker in workers:
            worker.process.wait(timeout=30)


@pytest.fixture
def hung_redis():
    """Accepts connections and never answers: Redis stopped with SIGSTOP."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    listener.shutdown(socket.SHUT_RDWR)
    listener.close()
    for sock in held:
        sock.close()
