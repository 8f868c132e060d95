"""A write service's transaction: its own, or — when its caller asks — its caller's.

A service opens ``service_transaction()`` where it would open
``transaction.atomic()``. Called on its own, that is its transaction; nested in
another, it is a savepoint, so the caller may catch the service's refusal and go
on. The confirm (tools/proposals.py) runs a service inside its own transaction
and rolls that back whole on any error; a savepoint there is two round trips
for nothing, so it asks for none with ``in_callers_transaction()``. A refusal
then leaves the caller's transaction marked for rollback, which the caller
handles by rolling back and running the click again with the savepoint.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction

_joined: ContextVar[bool] = ContextVar("service_joins_callers_transaction", default=False)


def service_transaction() -> transaction.Atomic:
    """The service's transaction; inside ``in_callers_transaction()``, its caller's."""
    return transaction.atomic(savepoint=not _joined.get())


@contextmanager
def in_callers_transaction() -> Iterator[None]:
    """Services called here join the caller's transaction without a savepoint:
    the caller promises to roll back whole if one raises."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("in_callers_transaction() needs the caller's transaction.")
    token = _joined.set(True)
    try:
        yield
    finally:
        _joined.reset(token)
