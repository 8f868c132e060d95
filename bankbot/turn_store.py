"""Where a turn in flight is kept, so that a page or socket served by any worker finds
it: the one choice of store, and what every store answers.

The fragments of a turn already cross workers through the channel layer; the store
lives beside it. With ``REDIS_URL`` (several workers) it is Redis
(bankbot/turn_store_redis.py): the scaled deployment has it already, its keys expire by
themselves — a lease for a running turn, a grace for an ended one — so a dead worker
leaves nothing "in progress", and a list per turn gives the fragments their order.
Without it (the embedded default: one process, the in-memory channel layer) it is the
process's memory (bankbot/turn_progress.py), with the same lease, grace and bound. Not
the database: a turn sends a frame every 40 ms, and a row written per frame would put
the chat's busiest path on the database, which waits for no one and is the part that
must not be slowed (docs/scaling.md); what the store holds is a copy of what is on its
way to the browser, and its loss loses no data (the answer is stored by the turn).

A store's answers about a conversation are ``KeptTurn``s, oldest first: a turn that
runs, one that ended within the grace (replayed whole to a socket that connects), or one
abandoned — its lease lapsed without an end. A store that fails (Redis down) answers
nothing and keeps nothing: the turn goes on, as before the store existed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from bankbot import turn_progress


class TurnState(enum.StrEnum):
    RUNNING = "running"
    ENDED = "ended"  # within the grace: replayed whole
    ABANDONED = "abandoned"  # its lease lapsed without an end: its worker died or hung


@dataclass(frozen=True)
class KeptTurn:
    turn: str
    message: int  # the customer's message it answers (pk)
    state: TurnState
    fragments: tuple[str, ...] = ()  # so far; empty from ``on_page``


@dataclass
class TurnHandle:
    """A running turn, as its worker holds it: how many fragments it has numbered,
    and how many characters it keeps."""

    turn: str
    conversation: str  # the conversation's public id (hex)
    message: int
    sent: int = 0
    size: int = 0
    kept: bool = True  # False once past the bound or after a failed write: never replayed with a gap


class TurnStore(Protocol):
    async def begin(self, handle: TurnHandle) -> None: ...

    async def record(self, handle: TurnHandle, html: str) -> int:
        """Keep a fragment the turn is about to send; its number (from 0)."""
        ...

    async def renew(self, handle: TurnHandle) -> None:
        """The turn still runs: its lease goes on."""
        ...

    async def end(self, handle: TurnHandle) -> None: ...

    def on_page(self, conversation: str) -> list[KeptTurn]:
        """For a page being rendered (synchronous): the turns, without fragments."""
        ...

    async def state_of(self, conversation: str, turn: str) -> TurnState | None:
        """For a socket watching a turn: where it is (None: forgotten, or never kept)."""
        ...

    async def so_far(self, conversation: str) -> list[KeptTurn]:
        """For a socket that connects: the turns, with their fragments so far."""
        ...


class MemoryTurnStore:
    """The process's own store (bankbot/turn_progress.py), for the embedded default."""

    def __init__(self) -> None:
        self._progress: dict[str, turn_progress.TurnProgress] = {}

    async def begin(self, handle: TurnHandle) -> None:
        self._progress[handle.turn] = turn_progress.begin(
            conversation=handle.conversation, message=handle.message, turn=handle.turn
        )

    async def record(self, handle: TurnHandle, html: str) -> int:
        progress = self._progress.get(handle.turn)
        seq = turn_progress.record(progress, html) if progress is not None else handle.sent
        handle.sent = seq + 1
        return seq

    async def renew(self, handle: TurnHandle) -> None:
        if (progress := self._progress.get(handle.turn)) is not None:
            turn_progress.renew(progress)

    async def end(self, handle: TurnHandle) -> None:
        if (progress := self._progress.pop(handle.turn, None)) is not None:
            turn_progress.end(progress)

    def on_page(self, conversation: str) -> list[KeptTurn]:
        return [
            KeptTurn(kept.turn, kept.message, kept.state)
            for kept in self._kept(conversation)
            if kept.state is not TurnState.ENDED
        ]

    async def so_far(self, conversation: str) -> list[KeptTurn]:
        return self._kept(conversation)

    async def state_of(self, conversation: str, turn: str) -> TurnState | None:
        state = turn_progress.state_of(conversation, turn)
        return TurnState(state) if state is not None else None

    @staticmethod
    def _kept(conversation: str) -> list[KeptTurn]:
        return [
            KeptTurn(turn, message, TurnState(state), tuple(sent))
            for turn, message, state, sent in turn_progress.snapshot(conversation)
        ]


_memory = MemoryTurnStore()
_shared: dict[str, TurnStore] = {}


def turn_store() -> TurnStore:
    """Redis when the deployment has it (``REDIS_URL``), else this process's memory."""
    url: str = getattr(settings, "REDIS_URL", "")
    if not url:
        return _memory
    if url not in _shared:
        from bankbot.turn_store_redis import RedisTurnStore

        _shared[url] = RedisTurnStore(url)
    return _shared[url]


def in_flight(conversation: str) -> tuple[dict[int, str], dict[int, str]]:
    """For the page: the turns running, and those abandoned, by the customer message
    they answer (pk → turn id)."""
    turns = turn_store().on_page(conversation)
    return (
        {kept.message: kept.turn for kept in turns if kept.state is TurnState.RUNNING},
        {kept.message: kept.turn for kept in turns if kept.state is TurnState.ABANDONED},
    )
