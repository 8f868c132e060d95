"""Turns in flight on one worker: a thread pool of its own, sized by
``BANKBOT_MAX_TURNS_PER_WORKER`` (a turn mostly waits for the model, holding no
database connection), and ``TurnSlots``, which tells a customer beyond the bound to
wait instead of queueing them in silence. A turn asked to stop stops before its next
model call. Why a pool of its own and what it costs: docs/scaling.md.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings


@dataclass
class TurnSlots:
    size: int
    _lock: threading.Lock = field(default_factory=threading.Lock)
    in_flight: int = 0
    peak: int = 0

    def take(self) -> bool:
        """A slot for a new turn, or False: the worker holds as many as it may."""
        with self._lock:
            if self.in_flight >= self.size:
                return False
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            return True

    def give_back(self) -> None:
        with self._lock:
            self.in_flight = max(0, self.in_flight - 1)


class TurnStopped(Exception):
    """The turn was asked to stop before its next model call."""


@dataclass
class StopSignal:
    """Set when nobody waits for the turn any more; checked between steps."""

    event: threading.Event = field(default_factory=threading.Event)

    def set(self) -> None:
        self.event.set()

    def check(self) -> None:
        if self.event.is_set():
            raise TurnStopped()


_pool: ThreadPoolExecutor | None = None
_slots: TurnSlots | None = None
_guard = threading.Lock()


def turn_pool() -> ThreadPoolExecutor:
    """The worker's threads for turns: one per slot, made as they are needed."""
    global _pool
    with _guard:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=settings.BANKBOT_MAX_TURNS_PER_WORKER, thread_name_prefix="turn"
            )
        return _pool


def turn_slots() -> TurnSlots:
    global _slots
    with _guard:
        if _slots is None or _slots.size != settings.BANKBOT_MAX_TURNS_PER_WORKER:
            _slots = TurnSlots(settings.BANKBOT_MAX_TURNS_PER_WORKER)
        return _slots


def reset_for_tests() -> None:
    """A fresh pool and fresh slots (the setting may have changed)."""
    global _pool, _slots
    with _guard:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool, _slots = None, None
