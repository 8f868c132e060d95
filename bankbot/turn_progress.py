"""Turns in flight on this worker, for a page or a socket that comes in while one runs.

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
gets the answer even when its socket connects after the end. What is kept is what
this worker's turns sent: with several workers (docs/scaling.md), a page or socket
served by another worker than the turn's does not see it yet.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

GRACE_SECONDS = 60.0


@dataclass
class TurnProgress:
    turn: str
    conversation: str  # the conversation's public id (hex)
    message: int  # the customer's message it answers (pk)
    fragments: list[str] = field(default_factory=list)
    ended_at: float | None = None


_lock = threading.Lock()
_turns: dict[str, dict[str, TurnProgress]] = {}


def begin(*, conversation: str, message: int, turn: str) -> TurnProgress:
    progress = TurnProgress(turn=turn, conversation=conversation, message=message)
    with _lock:
        _prune()
        _turns.setdefault(conversation, {})[turn] = progress
    return progress


def record(progress: TurnProgress, html: str) -> int:
    """Keep a fragment the turn is about to send; its number (from 0)."""
    with _lock:
        progress.fragments.append(html)
        return len(progress.fragments) - 1


def end(progress: TurnProgress) -> None:
    with _lock:
        progress.ended_at = time.monotonic()


def in_flight(conversation: str) -> dict[int, str]:
    """The conversation's turns still running here: customer message pk → turn id."""
    with _lock:
        return {p.message: p.turn for p in _turns.get(conversation, {}).values() if p.ended_at is None}


def replay(conversation: str) -> list[tuple[str, list[str]]]:
    """The conversation's turns running or ended within the grace, oldest first:
    (turn id, its fragments so far)."""
    with _lock:
        _prune()
        return [(p.turn, list(p.fragments)) for p in _turns.get(conversation, {}).values()]


def _prune() -> None:
    horizon = time.monotonic() - GRACE_SECONDS
    for conversation in list(_turns):
        turns = _turns[conversation]
        for turn in [t for t, p in turns.items() if p.ended_at is not None and p.ended_at < horizon]:
            del turns[turn]
        if not turns:
            del _turns[conversation]


def reset_for_tests() -> None:
    with _lock:
        _turns.clear()
