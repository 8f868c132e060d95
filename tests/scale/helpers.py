"""What the scale-out tests share besides fixtures: worker processes on the test
database (tests/scale/worker.py), customers and proposals for them to click, and a
TCP relay a test can cut."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from accounts.models import Account, Card, Customer, Transaction
from bankbot.models import Conversation
from tests.daphne import LiveServer
from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_for
from tools.models import Proposal

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("worker.py")


def database_url(host: str | None = None, port: int | None = None) -> str:
    """The URL of the database this test run uses (the test database, not the
    one DATABASE_URL names), optionally through another host and port. On
    SQLite: the test run's database file, which a worker opens too."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{quote(db['USER'])}:{quote(db['PASSWORD'])}@"
        f"{host or db['HOST']}:{port or db['PORT']}/{db['NAME']}"
    )


@dataclass
class WorkerRun:
    returncode: int
    results: list[dict[str, Any]] = field(default_factory=list)
    stderr: str = ""
    healthz: dict[str, Any] | None = None

    @property
    def killed(self) -> bool:
        return self.returncode == -9


def run_workers(
    jobs: list[dict[str, Any]],
    *,
    env: dict[str, str] | None = None,
    timeout: float = 180,
    on_line: Any = None,
    before_go: Any = None,
) -> list[WorkerRun]:
    """Start one process per job, release them together, collect what each printed.

    ``on_line(process, line)`` sees any other line a worker prints (fault tests
    use it to act at a precise moment); its return value, if any, is written
    back to that worker's stdin. ``before_go()`` runs once every worker is ready.
    """
    base = {**os.environ, "DATABASE_URL": database_url(), "DB_CONN_MAX_AGE": "0", "PYTHONPATH": str(ROOT)}
    base.pop("REDIS_URL", None)
    processes = [
        subprocess.Popen(  # noqa: S603 (our own interpreter and worker script)
            [sys.executable, str(WORKER)],
            cwd=ROOT,
            env={**base, **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in jobs
    ]
    for process, job in zip(processes, jobs, strict=True):
        process.stdin.write(json.dumps(job) + "\n")
        process.stdin.flush()
    for process in processes:
        line = process.stdout.readline().strip()
        if line != "ready":
            process.kill()
            raise AssertionError(f"worker did not start: {line!r} {process.stderr.read()}")
    if before_go is not None:
        before_go()
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    runs = []
    for process in processes:
        report: dict[str, Any] = {}
        for line in process.stdout:
            if line.startswith("{"):
                report = json.loads(line)
            elif on_line is not None:
                answer = on_line(process, line.strip())
                if answer is not None:
                    process.stdin.write(answer + "\n")
                    process.stdin.flush()
        process.wait(timeout=timeout)
        runs.append(
            WorkerRun(
                process.returncode, report.get("results", []), process.stderr.read(), report.get("healthz")
            )
        )
    return runs


def clicks_for(proposal: Proposal, times: int = 1) -> list[dict[str, str]]:
    """What the confirm button sends: the proposal's public id and the digest shown."""
    click = {
        "username": proposal.customer.user.username,
        "public_id": str(proposal.public_id),
        "digest": proposal.args_digest,
    }
    return [dict(click) for _ in range(times)]


def make_scale_customer(index: int, transactions: int = 4) -> Customer:
    """A customer with one card and a few recent, disputable transactions."""
    user = get_user_model().objects.create_user(username=f"scale{index}", password=f"scale{index}-pw-123")
    customer = Customer.objects.create(user=user, full_name=f"Scale Customer {index}")
    account = Account.objects.create(
        customer=customer, number=f"KZ86125KZT5009{index:06d}", balance=Decimal("100000.00")
    )
    card = Card.objects.create(account=account, last4=f"{7000 + index:04d}")
    for number in range(transactions):
        Transaction.objects.create(
            account=account,
            card=card,
            reference=f"T-{90000 + index * 100 + number}",
            posted_at=timezone.now() - timedelta(days=2 + number),
            amount=Decimal(f"{1000 + number}.00"),
            merchant="Magnum Cash&Carry",
            description="Groceries",
        )
    return customer


def propose(customer: Customer, text: str, tool: str, args: dict[str, str]) -> Proposal:
    """What the model asks for, through the guarded harness, in a new conversation."""
    conversation = Conversation.objects.create(customer=customer)
    ctx = action_context_for(customer.user, conversation, mandate=mandate_for(customer=customer, text=text))
    outcome = GuardedHarness(ctx).call(tool, args)
    assert outcome.status == "awaiting_confirmation", outcome.message()
    return outcome.proposal


def propose_dispute(customer: Customer, txn: Transaction) -> Proposal:
    return propose(
        customer,
        f"Please dispute {txn.reference}, it was not me",
        "raise_dispute",
        {"transaction": txn.reference, "amount": f"{txn.amount:.2f}", "reason": "not_recognised"},
    )


def propose_block(customer: Customer, card: Card) -> Proposal:
    return propose(customer, f"Block my card {card.last4}", "block_card", {"card": card.last4})


class DatabaseLink:
    """A TCP relay between a worker and PostgreSQL that a test can cut: the
    database "goes away" for that worker alone, mid-request if need be.

    ``cut()`` drops every relayed connection and refuses new ones;
    ``restore()`` accepts again on the same port.
    """

    def __init__(self) -> None:
        db = connection.settings_dict
        self.target = (db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
        self.port = 0
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    @property
    def url(self) -> str:
        return database_url(host="127.0.0.1", port=self.port)

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            if self._listener is not None:
                # shutdown() wakes the thread blocked in accept(); close() alone does not.
                with contextlib.suppress(OSError):
                    self._listener.shutdown(socket.SHUT_RDWR)
                self._listener.close()
                self._listener = None
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)


def wait_healthy(server: LiveServer, deadline_seconds: float = 60) -> None:
    """Until the server answers /healthz with 200 (it is listening already: daphne_start)."""
    import http.client
    import time

    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise AssertionError(f"daphne on {server.port} exited:\n{''.join(server.log[-40:])}")
        try:
            conn = http.client.HTTPConnection(*server.address, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)  # polling a server that is starting, not timing a test
    raise AssertionError(f"daphne on {server.port} did not become healthy")


class ChatSocket:
    """A browser's chat socket, as little of one as the tests need: the WebSocket
    handshake (RFC 6455) to one worker, with the page's origin and session cookie,
    then text frames each way (the client's masked, as a browser's are)."""

    def __init__(self, server: LiveServer, path: str, cookie: str, timeout: float = 20) -> None:
        import base64

        self.sock = socket.create_connection(server.address, timeout=timeout)
        origin = f"127.0.0.1:{server.port}"
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: http://{origin}\r\nCookie: {cookie}\r\n\r\n"
            ).encode()
        )
        self._buffer = b""
        while b"\r\n\r\n" not in self._buffer:
            self._buffer += self._recv()
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise AssertionError(f"the socket was refused: {head.decode(errors='replace')}")

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode())

    def receive(self) -> str:
        """The next text message (a ping is answered on the way)."""
        message = b""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(self._exactly(2), "big")
            elif length == 127:
                length = int.from_bytes(self._exactly(8), "big")
            payload = self._exactly(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError(f"closed by the server: {payload!r}")
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            message += payload
            if first & 0x80:
                return message.decode()

    def until(self, marker: str) -> list[str]:
        """Every message up to and including the first that contains ``marker``."""
        messages = [self.receive()]
        while marker not in messages[-1]:
            messages.append(self.receive())
        return messages

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._frame(0x8, (1000).to_bytes(2, "big"))
        self.sock.close()

    def _frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = bytes([0x80 | opcode, 0x80 | length])
        elif length < 1 << 16:
            header = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
        else:
            header = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        return data

    def _exactly(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += self._recv()
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data
