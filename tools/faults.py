"""Fault injection for tests: make a step fail at a named point.

Production code calls ``fault_point(name)``; nothing is registered outside
tests, so it costs one dict lookup.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_FAULTS: dict[str, list[BaseException]] = {}


class ResponseLost(Exception):
    """The service committed, then its answer never reached the executor."""


def fault_point(name: str) -> None:
    pending = _FAULTS.get(name)
    if pending:
        raise pending.pop(0)


@contextmanager
def inject_fault(name: str, error: BaseException, *, times: int = 1) -> Iterator[None]:
    _FAULTS[name] = [error] * times
    try:
        yield
    finally:
        _FAULTS.pop(name, None)
