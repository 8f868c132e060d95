"""A turn's fragments on their way to the browser: in order, the text coalesced into
a frame every ``interval`` or ``max_chars`` (one frame a word was most of a turn's
cost: docs/benchmarks.md, part c). Any other fragment takes the waiting text with it,
ahead of itself, so nothing is reordered or left behind. The clock is injected.

Nor does a word wake the event loop: the turn's thread wakes it only for what is due
at once (a fragment, enough text, the first text after a quiet interval), and text
that comes while a frame is not yet due waits for the loop to look when it is — one
wake-up a frame, not one a token (docs/benchmarks.md, part g).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Literal

# A slow model's words still appear as they come (a frame at most every 40 ms);
# a fast one's arrive a few lines at a time.
STREAM_INTERVAL = 0.040  # seconds
STREAM_MAX_CHARS = 200

Clock = Callable[[], float]

log = logging.getLogger(__name__)


class TextCoalescer:
    """Collects streamed text and says when it is due to be sent."""

    def __init__(
        self,
        *,
        interval: float = STREAM_INTERVAL,
        max_chars: int = STREAM_MAX_CHARS,
        clock: Clock = time.monotonic,
    ) -> None:
        self.interval, self.max_chars, self.clock = interval, max_chars, clock
        self._pending: list[str] = []
        self._size = 0
        # The turn's opening fragment has just been sent when this is made.
        self._last_sent = clock()

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def add(self, text: str) -> bool:
        """Hold ``text``; True when enough has gathered to send it now."""
        if text:
            self._pending.append(text)
            self._size += len(text)
        return self._size >= self.max_chars

    def due_in(self) -> float | None:
        """Seconds until the held text is due (0: now); None when nothing is held."""
        if not self._pending:
            return None
        if self._size >= self.max_chars:
            return 0.0
        return max(0.0, self._last_sent + self.interval - self.clock())

    def next_frame_in(self) -> float:
        """Seconds until a frame may follow the last one (0: it may now)."""
        return max(0.0, self._last_sent + self.interval - self.clock())

    @property
    def room(self) -> int:
        """Characters that may still gather before the held text is due by its size."""
        return self.max_chars - self._size

    def take(self) -> str:
        """Everything held, in order, for a frame about to be sent (and the time of it)."""
        text = "".join(self._pending)
        self._pending.clear()
        self._size = 0
        self._last_sent = self.clock()
        return text


Kind = Literal["text", "html", "last", "end"]


class TurnStream:
    """An ordered pipe from a turn's worker thread to the channel layer.

    The worker thread calls :meth:`text` and :meth:`fragment` (they never block);
    one task on the event loop sends, in the order they were put: text through
    a :class:`TextCoalescer`, rendered by ``render_text``; other fragments at
    once, with any held text ahead of them. :meth:`close` sends what is left and
    waits until everything has gone.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        render_text: Callable[[str], str],
        *,
        interval: float = STREAM_INTERVAL,
        max_chars: int = STREAM_MAX_CHARS,
        clock: Clock = time.monotonic,
        before_last: Callable[[], None] | None = None,
    ) -> None:
        # before_last: called on the loop just before the frame that carries the
        # turn's last fragment is sent (the consumer lets the customer speak again).
        self._send, self._render_text, self._before_last = send, render_text, before_last
        self._coalescer = TextCoalescer(interval=interval, max_chars=max_chars, clock=clock)
        self._loop = asyncio.get_running_loop()
        # What the threads put and the pump has not taken yet, and when to wake it.
        self._lock = threading.Lock()
        self._items: list[tuple[Kind, str]] = []
        self._woken = False  # a wake-up is on its way to the pump
        self._room: int | None = None  # while the pump waits for a frame to fall due:
        # how much more text may come before it must be woken (None: wake it for any)
        self._wake = asyncio.Event()
        self._pump = self._loop.create_task(self._run())
        self.frames = 0  # frames sent (tests read it)

    def text(self, text: str) -> None:
        """A text delta of the answer. Safe to call from any thread."""
        self._put("text", text)

    def fragment(self, html: str, *, last: bool = False) -> None:
        """Any other fragment, sent as soon as the fragments before it. Any thread.
        ``last``: the turn's final answer or error."""
        self._put("last" if last else "html", html)

    async def close(self) -> None:
        """Send what is held and wait for every fragment put so far to be sent."""
        self._put("end", "")
        await self._pump

    def _put(self, kind: Kind, payload: str) -> None:
        with self._lock:
            self._items.append((kind, payload))
            if kind == "text" and self._room is not None:
                self._room -= len(payload)
                if self._room > 0:
                    return  # the pump looks when the frame is due, and takes it then
            if self._woken:
                return
            self._woken = True
        self._loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        while True:
            with self._lock:
                items, self._items = self._items, []
                self._woken, self._room = False, None
            for kind, payload in items:
                if kind == "text":
                    if self._coalescer.add(payload):
                        await self._flush()
                elif kind in ("html", "last"):
                    if kind == "last" and self._before_last is not None:
                        self._before_last()
                    await self._flush(payload)
                else:
                    if self._coalescer.pending:
                        await self._flush()
                    return
            wait = self._coalescer.due_in()
            if wait == 0:
                await self._flush()
                continue
            if wait is None and (quiet := self._coalescer.next_frame_in()):
                wait = quiet  # text that comes before then is not due before then
            with self._lock:
                if self._items:
                    continue  # more came meanwhile: take it first
                self._wake.clear()
                if wait is not None:
                    self._room = self._coalescer.room
            try:
                if wait is None:
                    await self._wake.wait()
                else:
                    await asyncio.wait_for(self._wake.wait(), wait)
            except TimeoutError:  # held text may be due (the clock decides)
                continue

    async def _flush(self, html: str = "") -> None:
        text = self._coalescer.take()
        frame = (self._render_text(text) if text else "") + html
        if frame:
            self.frames += 1
            try:
                await self._send(frame)
            except Exception:  # one lost frame must not silence the rest of the turn
                log.exception("chat: a fragment could not be sent")
