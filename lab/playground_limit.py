"""How often one trainee may run the playground.

A run plays the trainee's scenario twice (naive and guarded), a second or two of a
worker's CPU, so each trainee gets ``BANKBOT_LAB_PLAYGROUND_RUNS`` runs in any
``BANKBOT_LAB_PLAYGROUND_WINDOW_SECONDS``. The runs' start times live in Django's
cache under the trainee's id: with the default (per-process, in-memory) cache each
worker counts on its own; a shared cache (``CACHES``) makes it one count.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache

KEY = "lab:playground:runs:{}"


def run_wait(trainee_id: int | str) -> int:
    """0 when a run may start now (and it is counted), else the whole seconds until one may."""
    allowed: int = settings.BANKBOT_LAB_PLAYGROUND_RUNS
    window: int = settings.BANKBOT_LAB_PLAYGROUND_WINDOW_SECONDS
    key = KEY.format(trainee_id)
    now = time.time()
    stored: list[float] = cache.get(key, [])
    recent = [started for started in stored if started > now - window]
    if len(recent) >= allowed:
        return max(1, math.ceil(float(recent[-allowed]) + window - now))
    cache.set(key, [*recent, now][-allowed:], timeout=window)
    return 0
