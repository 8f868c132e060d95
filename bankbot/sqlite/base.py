"""Django's SQLite backend, with the writers of one process taking turns on a lock
instead of SQLite's busy handler.

A SQLite database has one writer at a time. A second one gets SQLITE_BUSY, and the
busy handler (``timeout``) retries after sleeping 1, 2, 5, 10, 15, 20, 25, 25, 25,
50, 50, 100 ms …: when many threads of a worker write at once (200 turns storing their
answers, customers' messages being accepted), most of them sleep through the moments
the database is free, and each answer reaches its customer that much later
(docs/benchmarks.md, part g: an answer's INSERT waited ~100 ms on average). Here a
write takes a lock of this process first — the whole transaction, from ``BEGIN
IMMEDIATE`` to its COMMIT or ROLLBACK, or the one statement written in autocommit —
so the next writer is woken the moment the last one is done. Nothing else changes:
SQLite still takes its own lock, and other processes, or a writer that waited
``timeout`` seconds here, still meet the busy handler as before.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.backends.sqlite3 import base

# One writer lock per database file, for every thread and connection of the process.
_writers: dict[str, threading.Lock] = {}
_writers_guard = threading.Lock()

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLAC")


def writer_lock(name: str) -> threading.Lock:
    with _writers_guard:
        return _writers.setdefault(name, threading.Lock())


def _writes(query: str) -> bool:
    return query.lstrip()[:6].upper() in _WRITES


class CursorWrapper(base.SQLiteCursorWrapper):
    """A statement that writes outside a transaction (autocommit) waits its turn."""

    writer: threading.Lock | None = None
    wait: float = 5.0

    def execute(self, query: str, params: Any = None) -> Any:
        if self.writer is None or self.connection.in_transaction or not _writes(query):
            return super().execute(query, params)
        taken = self.writer.acquire(timeout=self.wait)
        try:
            return super().execute(query, params)
        finally:
            if taken:
                self.writer.release()

    def executemany(self, query: str, param_list: Any) -> Any:
        if self.writer is None or self.connection.in_transaction or not _writes(query):
            return super().executemany(query, param_list)
        taken = self.writer.acquire(timeout=self.wait)
        try:
            return super().executemany(query, param_list)
        finally:
            if taken:
                self.writer.release()


class DatabaseWrapper(base.DatabaseWrapper):
    """A transaction holds the process's writer lock from BEGIN to COMMIT or ROLLBACK
    (or the connection's close); an in-memory database is left as Django has it."""

    _holds_writer = False

    @property
    def _writer(self) -> threading.Lock | None:
        if self.is_in_memory_db():
            return None
        return writer_lock(str(self.settings_dict["NAME"]))

    @property
    def _writer_wait(self) -> float:
        return float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))

    def create_cursor(self, name: str | None = None) -> Any:
        cursor = self.connection.cursor(factory=CursorWrapper)
        cursor.writer, cursor.wait = self._writer, self._writer_wait
        return cursor

    def _take_writer(self) -> None:
        writer = self._writer
        if writer is not None and not self._holds_writer:
            # After ``timeout`` seconds, on to SQLite's own wait (and its error).
            self._holds_writer = writer.acquire(timeout=self._writer_wait)

    def _give_writer(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            writer = self._writer
            if writer is not None:
                writer.release()

    def _start_transaction_under_autocommit(self) -> None:
        self._take_writer()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # not in the stubs
        except BaseException:
            self._give_writer()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._give_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._give_writer()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._give_writer()
