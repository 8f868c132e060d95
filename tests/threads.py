"""Run calls at the same moment, each in its own thread with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def run_at_once(calls: list[Callable[[], object]]) -> tuple[list[object], list[BaseException]]:
    """Returns (results, errors); every failure is reported to the test, none is lost."""
    barrier = threading.Barrier(len(calls), timeout=30)
    lock = threading.Lock()
    results: list[object] = []
    errors: list[BaseException] = []

    def worker(call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcome = call()
            with lock:
                results.append(outcome)
        except BaseException as exc:
            with lock:
                errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a worker hung"
    return results, errors
