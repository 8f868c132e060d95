"""The in-memory channel layer of one worker (no REDIS_URL), without its cost per message.

Channels' ``InMemoryChannelLayer`` walks every channel's queue and every group's
members for expired entries before each ``receive`` and ``group_send``: with a
socket's conversation and session groups for each of hundreds of customers, and a
frame every 40 ms for each streaming answer, that walk was the largest cost on a
worker's event loop (docs/benchmarks.md, part g). Messages expire after 60 s and
group memberships after a day, so walking once a second removes the same entries,
at most a second later; everything else is channels' own.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as ChannelsInMemoryChannelLayer

CLEAN_EVERY = 1.0  # seconds between walks for expired messages and memberships


class InMemoryChannelLayer(ChannelsInMemoryChannelLayer):
    _cleaned_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < CLEAN_EVERY:
            return
        self._cleaned_at = now
        super()._clean_expired()  # type: ignore[misc]  # channels types leave out its private walk
