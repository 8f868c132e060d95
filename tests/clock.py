"""The suite's clock: one pinned "now", the same in every process a test starts.

Tests never read the wall clock for what they assert. The run starts at PINNED, a
Wednesday in the middle of a month in the bank's time zone, and time then moves at
its real pace (time-machine with ``tick``), so timeouts, expiries and the event
loop behave as in life while "today", "this month" and "N days ago" are the same
on every day of the year. A test that needs another day moves to it with the
``time_machine`` fixture (tests/calendar/ walks the calendar's edges).

A process the suite starts (Daphne for the browser tests, the scale workers)
follows the same clock: the suite writes where its pinned time began into the
environment, and tests/settings.py, which every such process loads, starts the
same travel there.
"""

from __future__ import annotations

import os
import time
from datetime import datetime
from zoneinfo import ZoneInfo

import time_machine

BANK_ZONE = ZoneInfo("Asia/Almaty")
PINNED = datetime(2026, 11, 18, 12, 0, tzinfo=BANK_ZONE)
ENVIRONMENT = "BANKBOT_TEST_CLOCK"


def pin() -> time_machine.travel:
    """Start the run's travel to PINNED and tell child processes where it began."""
    travel = time_machine.travel(PINNED, tick=True)
    travel.start()
    os.environ[ENVIRONMENT] = f"{PINNED.timestamp()!r}:{time_machine.escape_hatch.time.time()!r}"
    return travel


def follow() -> None:
    """In a process the suite started: travel to where the suite's clock is now."""
    mark = os.environ.get(ENVIRONMENT)
    if not mark or time_machine.escape_hatch.is_travelling():
        return
    pinned, began = (float(part) for part in mark.split(":"))
    elapsed = time.time() - began  # not travelling yet: the real clock
    time_machine.travel(pinned + elapsed, tick=True).start()
