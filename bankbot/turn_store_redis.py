"""Turns in flight in Redis, where every worker finds them (``REDIS_URL``; the choice
and the reasons are bankbot/turn_store.py's).

Per turn, three keys, each expiring by itself:
- ``…:<turn>`` a hash: its conversation, the customer message it answers, whether it
  ended, whether it outgrew the bound;
- ``…:<turn>:alive`` the lease, ``LEASE_SECONDS``, renewed while the turn runs
  (bankbot/turn_task.py): when its worker dies the lease lapses on Redis's own clock,
  and the turn reads as abandoned, never as running;
- ``…:<turn>:fragments`` a list, in the order the turn sent them: a fragment's number
  is its place in it (RPUSH answers the length; a write that fails or answers another
  length stops the keeping, so nothing is replayed with a gap).
Per conversation, a sorted set of its turns by when they began. While the turn runs
the hash, the list and the set last the lease and the grace; once it ends, the grace.

The turn's worker writes from its event loop (redis.asyncio, a client per loop, as
channels-redis keeps its pools); a page, rendered on a request's thread, reads with the
blocking client. The worker with the channel layer's timeouts (config/settings.py), the
page with shorter ones: a Redis down or hung is an error within seconds, the turn goes
on unkept, and the page shows the stored conversation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Sequence
from typing import Any, cast

import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bankbot import turn_progress
from bankbot.turn_store import KeptTurn, TurnHandle, TurnState

log = logging.getLogger(__name__)

PREFIX = "bankbot:turn:"
TIMEOUTS: dict[str, Any] = {"socket_connect_timeout": 3, "socket_timeout": 10, "decode_responses": True}
# A page waits for the turns in flight no longer than this: without them it is the
# page as it was before the turn (the stored conversation), which is better than a late one.
PAGE_TIMEOUTS: dict[str, Any] = {"socket_connect_timeout": 1, "socket_timeout": 2, "decode_responses": True}


class RedisTurnStore:
    def __init__(
        self,
        url: str,
        *,
        lease: float = turn_progress.LEASE_SECONDS,
        grace: float = turn_progress.GRACE_SECONDS,
        max_chars: int = turn_progress.MAX_TURN_CHARS,
    ) -> None:
        self.url, self.max_chars = url, max_chars
        self.lease_ms, self.grace_ms = int(lease * 1000), int(grace * 1000)
        self._blocking = redis.Redis.from_url(url, **PAGE_TIMEOUTS)
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
            weakref.WeakKeyDictionary()
        )

    # --- the turn's worker ------------------------------------------------------

    async def begin(self, handle: TurnHandle) -> None:
        try:
            async with self._client().pipeline(transaction=True) as pipe:
                pipe.hset(
                    _turn(handle.turn),
                    mapping={"conversation": handle.conversation, "message": handle.message, "ended": 0},
                )
                pipe.zadd(_conversation(handle.conversation), {handle.turn: time.time()})
                self._hold(pipe, handle)
                await pipe.execute()
        except RedisError:
            log.warning("chat: a turn could not be kept in Redis", exc_info=True)
            handle.kept = False

    async def record(self, handle: TurnHandle, html: str) -> int:
        seq, handle.sent = handle.sent, handle.sent + 1
        if not handle.kept:
            return seq
        if handle.size + len(html) > self.max_chars:
            await self._stop_keeping(handle)
            return seq
        handle.size += len(html)
        try:
            async with self._client().pipeline(transaction=False) as pipe:  # one trip; no MULTI needed
                pipe.rpush(_fragments(handle.turn), html)
                pipe.pexpire(_fragments(handle.turn), self.lease_ms + self.grace_ms)
                length, _ = await pipe.execute()
        except RedisError:
            log.warning("chat: a turn's fragment could not be kept in Redis", exc_info=True)
            length = None
        if length != seq + 1:
            await self._stop_keeping(handle)
        return seq

    async def renew(self, handle: TurnHandle) -> None:
        with contextlib.suppress(RedisError):
            async with self._client().pipeline(transaction=True) as pipe:
                self._hold(pipe, handle)
                await pipe.execute()

    async def end(self, handle: TurnHandle) -> None:
        try:
            async with self._client().pipeline(transaction=True) as pipe:
                pipe.hset(_turn(handle.turn), "ended", 1)
                pipe.delete(_alive(handle.turn))
                pipe.pexpire(_turn(handle.turn), self.grace_ms)
                pipe.pexpire(_fragments(handle.turn), self.grace_ms)
                await pipe.execute()
        except RedisError:  # its lease lapses: it reads as abandoned, then is forgotten
            log.warning("chat: a turn's end could not be kept in Redis", exc_info=True)

    def _hold(self, pipe: aioredis.client.Pipeline, handle: TurnHandle) -> None:
        """The lease, and the turn's keys for the lease and the grace after it."""
        pipe.set(_alive(handle.turn), 1, px=self.lease_ms)
        for key in (_turn(handle.turn), _fragments(handle.turn), _conversation(handle.conversation)):
            pipe.pexpire(key, self.lease_ms + self.grace_ms)

    async def _stop_keeping(self, handle: TurnHandle) -> None:
        """Past the bound, or a write lost: the turn is no longer replayed (never with a gap)."""
        handle.kept = False
        with contextlib.suppress(RedisError):
            async with self._client().pipeline(transaction=True) as pipe:
                pipe.hset(_turn(handle.turn), "overflow", 1)
                pipe.delete(_fragments(handle.turn))
                await pipe.execute()

    def _client(self) -> aioredis.Redis:
        loop = asyncio.get_running_loop()
        client = self._by_loop.get(loop)
        if client is None:
            client = self._by_loop[loop] = aioredis.Redis.from_url(self.url, **TIMEOUTS)
        return client

    # --- a page or a socket, on any worker ----------------------------------------

    def on_page(self, conversation: str) -> list[KeptTurn]:
        try:
            turns = cast(list[str], self._blocking.zrange(_conversation(conversation), 0, -1))
            if not turns:
                return []
            with self._blocking.pipeline(transaction=True) as pipe:
                for turn in turns:
                    pipe.hgetall(_turn(turn))
                    pipe.exists(_alive(turn))
                replies = pipe.execute()
        except RedisError:
            log.warning("chat: the turns in flight could not be read from Redis", exc_info=True)
            return []
        kept, gone = _read(turns, replies, per_turn=2)
        if gone:
            with contextlib.suppress(RedisError):
                self._blocking.zrem(_conversation(conversation), *gone)
        return [k for k in kept if k.state is not TurnState.ENDED]

    async def so_far(self, conversation: str) -> list[KeptTurn]:
        try:
            client = self._client()
            turns = cast(list[str], await client.zrange(_conversation(conversation), 0, -1))
            if not turns:
                return []
            async with client.pipeline(transaction=True) as pipe:
                for turn in turns:
                    pipe.hgetall(_turn(turn))
                    pipe.exists(_alive(turn))
                    pipe.lrange(_fragments(turn), 0, -1)
                replies = await pipe.execute()
        except RedisError:
            log.warning("chat: the turns in flight could not be read from Redis", exc_info=True)
            return []
        kept, gone = _read(turns, replies, per_turn=3)
        if gone:
            with contextlib.suppress(RedisError):
                await client.zrem(_conversation(conversation), *gone)
        return kept

    async def state_of(self, conversation: str, turn: str) -> TurnState | None:
        try:
            async with self._client().pipeline(transaction=True) as pipe:
                pipe.hget(_turn(turn), "ended")
                pipe.exists(_alive(turn))
                ended, alive = await pipe.execute()
        except RedisError:
            return TurnState.RUNNING  # unknown: the channel layer tells the customer
        if ended is None:
            return None
        if ended == "1":
            return TurnState.ENDED
        return TurnState.RUNNING if alive else TurnState.ABANDONED


def _read(turns: list[str], replies: Sequence[Any], *, per_turn: int) -> tuple[list[KeptTurn], list[str]]:
    """The turns still kept, oldest first, and those whose keys expired."""
    kept, gone = [], []
    for index, turn in enumerate(turns):
        fields, alive, *sent = replies[index * per_turn : (index + 1) * per_turn]
        if not fields:
            gone.append(turn)
            continue
        if fields.get("ended") == "1":
            state = TurnState.ENDED
        else:
            state = TurnState.RUNNING if alive else TurnState.ABANDONED
        if fields.get("overflow") == "1" and state is not TurnState.ABANDONED:
            continue
        fragments = tuple(sent[0]) if sent else ()
        kept.append(KeptTurn(turn, int(fields["message"]), state, fragments))
    return kept, gone


def _turn(turn: str) -> str:
    return f"{PREFIX}{turn}"


def _alive(turn: str) -> str:
    return f"{PREFIX}{turn}:alive"


def _fragments(turn: str) -> str:
    return f"{PREFIX}{turn}:fragments"


def _conversation(conversation: str) -> str:
    return f"bankbot:conversation-turns:{conversation}"
