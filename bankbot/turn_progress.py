"""Turns in flight in this process: the embedded default's store of them (one Daphne,
SQLite, the in-memory channel layer). With ``REDIS_URL`` the same is kept in Redis
instead, where every worker finds it (bankbot/turn_store.py chooses; the Redis one is
bankbot/turn_store_redis.py).

A turn's fragments go to the conversation's group, to the sockets in it when each is
sent; a page opened (or reloaded, or a second tab) while the turn runs, or a socket
that reconnects after a drop, missed the ones before. So each turn's fragments are
kept here, numbered, while it runs and for ``GRACE_SECONDS`` after it ends:

- the page renders the turn's assistant message in progress, under the turn's own id
  (``in_flight``, used by ``bankbot/fragments.py``'s ``timeline``);
- a socket that connects is sent, on its own, the turn's message afresh and every
  fragment so far (``replay``), and drops the group's copies of those it was sent
  (the fragment's number, ``seq``); the rest of the turn comes through the group.

A turn that ended during the grace is replayed whole: a page rendered while it ran
gets the answer even when its socket connects after the end.

Bounded two ways. In time: a running turn holds a lease of ``LEASE_SECONDS``, renewed
while it runs (bankbot/turn_task.py); a turn whose lease lapsed without an end — its
worker died or hung — is no longer in flight but ``abandoned`` (the page offers Retry),
and is forgotten ``GRACE_SECONDS`` later, as an ended one is. In size: past
``MAX_TURN_CHARS`` of fragments a turn is no longer kept (never replayed with a gap):
a page that comes in then shows the customer's message alone, as before it ran, and
the stored answer on the next reload.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

GRACE_SECONDS = 60.0
LEASE_SECONDS = 15.0  # renewed every third of it while the turn runs
MAX_TURN_CHARS = 512_000  # a long statement's table is ~30 000


@dataclass
class TurnProgress:
    turn: str
    conversation: str  # the conversation's public id (hex)
    message: int  # the customer's message it answers (pk)
    fragments: list[str] = field(default_factory=list)
    ended_at: float | None = None
    alive_until: float = 0.0
    count: int = 0  # fragments recorded, kept or not
    size: int = 0  # characters kept
    overflowed: bool = False  # past MAX_TURN_CHARS: no longer kept

    def running(self, now: float) -> bool:
        return self.ended_at is None and now <= self.alive_until

    def abandoned(self, now: float) -> bool:
        return self.ended_at is None and now > self.alive_until


def _clock() -> float:
    return time.monotonic()


_lock = threading.Lock()
_turns: dict[str, dict[str, TurnProgress]] = {}


def begin(*, conversation: str, message: int, turn: str) -> TurnProgress:
    progress = TurnProgress(
        turn=turn, conversation=conversation, message=message, alive_until=_clock() + LEASE_SECONDS
    )
    with _lock:
        _prune()
        _turns.setdefault(conversation, {})[turn] = progress
    return progress


def record(progress: TurnProgress, html: str) -> int:
    """Keep a fragment the turn is about to send; its number (from 0)."""
    with _lock:
        progress.count += 1
        progress.alive_until = _clock() + LEASE_SECONDS
        if progress.size + len(html) > MAX_TURN_CHARS:
            progress.overflowed = True
            progress.fragments.clear()
        if not progress.overflowed:
            progress.fragments.append(html)
            progress.size += len(html)
        return progress.count - 1


def renew(progress: TurnProgress) -> None:
    """The turn still runs (it may be waiting on the model, sending nothing)."""
    with _lock:
        progress.alive_until = _clock() + LEASE_SECONDS


def end(progress: TurnProgress) -> None:
    with _lock:
        progress.ended_at = _clock()


def in_flight(conversation: str) -> dict[int, str]:
    """The conversation's turns still running here: customer message pk → turn id."""
    now = _clock()
    with _lock:
        return {
            p.message: p.turn
            for p in _turns.get(conversation, {}).values()
            if p.running(now) and not p.overflowed
        }


def abandoned(conversation: str) -> dict[int, str]:
    """The conversation's turns whose lease lapsed without an end, within the grace:
    customer message pk → turn id."""
    now = _clock()
    with _lock:
        return {p.message: p.turn for p in _turns.get(conversation, {}).values() if p.abandoned(now)}


def replay(conversation: str) -> list[tuple[str, list[str]]]:
    """The conversation's turns running or ended within the grace, oldest first:
    (turn id, its fragments so far)."""
    now = _clock()
    with _lock:
        _prune()
        return [
            (p.turn, list(p.fragments))
            for p in _turns.get(conversation, {}).values()
            if not p.overflowed and not p.abandoned(now)
        ]


def snapshot(conversation: str) -> list[tuple[str, int, str, list[str]]]:
    """Every turn of the conversation kept, oldest first: (turn id, the customer
    message it answers, "running", "ended" or "abandoned", its fragments so far —
    none once past the bound)."""
    now = _clock()
    with _lock:
        _prune()
        return [
            (p.turn, p.message, _state(p, now), list(p.fragments))
            for p in _turns.get(conversation, {}).values()
            if not (p.overflowed and not p.abandoned(now))
        ]


def state_of(conversation: str, turn: str) -> str | None:
    """One turn's state ("running", "ended", "abandoned"), None once forgotten."""
    with _lock:
        progress = _turns.get(conversation, {}).get(turn)
        return _state(progress, _clock()) if progress is not None else None


def _state(progress: TurnProgress, now: float) -> str:
    if progress.ended_at is not None:
        return "ended"
    return "running" if progress.running(now) else "abandoned"


def _prune() -> None:
    horizon = _clock() - GRACE_SECONDS
    for conversation in list(_turns):
        turns = _turns[conversation]
        for turn in [t for t, p in turns.items() if _last_heard(p) < horizon]:
            del turns[turn]
        if not turns:
            del _turns[conversation]


def _last_heard(progress: TurnProgress) -> float:
    return progress.ended_at if progress.ended_at is not None else progress.alive_until


def reset_for_tests() -> None:
    with _lock:
        _turns.clear()
