"""Fault injection for tests: make a step fail, or stop, at a named point.

Production code calls ``fault_point(name)``; nothing is registered outside
tests, so it costs one dict lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Fault = BaseException | Callable[[], None]
_FAULTS: dict[str, list[Fault]] = {}


class ResponseLost(Exception):
    """A transient failure of the tests' making (an answer lost on the way, a
    dropped connection): retried like a database error."""


def fault_point(name: str) -> None:
    pending = _FAULTS.get(name)
    if pending:
        fault = pending.pop(0)
        if isinstance(fault, BaseException):
            raise fault
        fault()


@contextmanager
def inject_fault(name: str, fault: Fault, *, times: int = 1) -> Iterator[None]:
    """``fault``: an exception to raise at ``name``, or an action to run there
    (the crash tests' workers stop at a point this way, to be killed)."""
    _FAULTS[name] = [fault] * times
    try:
        yield
    finally:
        _FAULTS.pop(name, None)
