"""The store of turns in flight (bankbot/turn_store.py), each backend the same way: the
process's memory (the embedded default) and Redis (with REDIS_URL, where another
worker reads what this one wrote). Numbering and order, the lease that a dead worker
lets lapse, the grace after the end, the bound on size, and a Redis that is down.

The memory store's clock is moved by hand; Redis keeps time itself, so there a lapse
is the expiry Redis would make (the key gone) and the test checks the expiry set."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
import redis

from bankbot import turn_progress
from bankbot.turn_store import KeptTurn, MemoryTurnStore, TurnHandle, TurnState, TurnStore, in_flight
from bankbot.turn_store_redis import RedisTurnStore

LEASE, GRACE = turn_progress.LEASE_SECONDS, turn_progress.GRACE_SECONDS


@dataclass
class Backend:
    """A store, another worker's view of the same (Redis: a second client), and how
    the test makes time pass for it."""

    store: TurnStore
    other: TurnStore
    lapse: Callable[[TurnHandle], None]  # the lease runs out (its worker is gone)
    forget: Callable[[TurnHandle], None]  # the grace after the lease or the end runs out
    bounded: Callable[[int], TurnStore]  # a store keeping at most that many characters a turn
    advance: Callable[[float], None] = lambda _seconds: None  # the memory store's clock


@pytest.fixture
def memory(monkeypatch: pytest.MonkeyPatch) -> Iterator[Backend]:
    now = [1000.0]
    monkeypatch.setattr(turn_progress, "_clock", lambda: now[0])

    def advance(seconds: float) -> None:
        now[0] += seconds

    def bounded(chars: int) -> TurnStore:
        monkeypatch.setattr(turn_progress, "MAX_TURN_CHARS", chars)
        return MemoryTurnStore()

    store = MemoryTurnStore()
    yield Backend(
        store,
        store,
        lapse=lambda _handle: advance(LEASE + 1),
        forget=lambda _handle: advance(LEASE + GRACE + 1),
        bounded=bounded,
        advance=advance,
    )
    turn_progress.reset_for_tests()


@pytest.fixture
def shared_redis() -> Iterator[Backend]:
    url = os.environ["REDIS_URL"]
    client = redis.Redis.from_url(url, decode_responses=True)

    def lapse(handle: TurnHandle) -> None:
        # Set to expire within the lease; gone is what Redis makes of it then.
        assert 0 < client.pttl(f"bankbot:turn:{handle.turn}:alive") <= LEASE * 1000
        client.delete(f"bankbot:turn:{handle.turn}:alive")

    def forget(handle: TurnHandle) -> None:
        for key in (f"bankbot:turn:{handle.turn}", f"bankbot:turn:{handle.turn}:fragments"):
            assert client.pttl(key) in (-2, *range(1, int((LEASE + GRACE) * 1000) + 1)), key
            client.delete(key)

    yield Backend(
        RedisTurnStore(url),
        RedisTurnStore(url),
        lapse,
        forget,
        lambda chars: RedisTurnStore(url, max_chars=chars),
    )
    client.close()


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request: pytest.FixtureRequest) -> Backend:
    return request.getfixturevalue("memory" if request.param == "memory" else "shared_redis")


def a_turn(message: int = 7) -> TurnHandle:
    return TurnHandle(turn=uuid.uuid4().hex[:12], conversation=uuid.uuid4().hex, message=message)


async def test_a_running_turn_is_found_with_its_fragments_numbered_in_order(backend: Backend):
    handle = a_turn()
    await backend.store.begin(handle)
    assert [await backend.store.record(handle, html) for html in ("<a>", "<b>", "<c>")] == [0, 1, 2]

    assert backend.other.on_page(handle.conversation) == [KeptTurn(handle.turn, 7, TurnState.RUNNING)]
    assert await backend.other.so_far(handle.conversation) == [
        KeptTurn(handle.turn, 7, TurnState.RUNNING, ("<a>", "<b>", "<c>"))
    ]
    assert await backend.other.so_far(uuid.uuid4().hex) == []


async def test_an_ended_turn_is_replayed_whole_then_forgotten(backend: Backend):
    handle = a_turn()
    await backend.store.begin(handle)
    await backend.store.record(handle, "<a>")
    await backend.store.end(handle)

    assert backend.other.on_page(handle.conversation) == [], "nothing in progress on the page"
    assert await backend.other.so_far(handle.conversation) == [
        KeptTurn(handle.turn, 7, TurnState.ENDED, ("<a>",))
    ]
    backend.forget(handle)
    assert await backend.other.so_far(handle.conversation) == []


async def test_a_turn_whose_lease_lapses_is_abandoned_not_in_progress(backend: Backend):
    handle = a_turn()
    await backend.store.begin(handle)
    await backend.store.record(handle, "<a>")
    backend.lapse(handle)  # its worker died: nobody renews it

    assert backend.other.on_page(handle.conversation) == [KeptTurn(handle.turn, 7, TurnState.ABANDONED)]
    assert await backend.other.so_far(handle.conversation) == [
        KeptTurn(handle.turn, 7, TurnState.ABANDONED, ("<a>",))
    ]
    backend.forget(handle)
    assert backend.other.on_page(handle.conversation) == []


async def test_a_renewed_lease_keeps_a_quiet_turn_running(memory: Backend):
    handle = a_turn()
    await memory.store.begin(handle)
    for _ in range(5):  # the model thinks for longer than a lease, sending nothing
        memory.advance(LEASE * 0.6)
        await memory.store.renew(handle)
    assert [k.state for k in memory.store.on_page(handle.conversation)] == [TurnState.RUNNING]
    memory.advance(LEASE * 0.6)  # sending counts as renewing
    await memory.store.record(handle, "<a>")
    memory.advance(LEASE * 0.6)
    assert [k.state for k in memory.store.on_page(handle.conversation)] == [TurnState.RUNNING]


@pytest.mark.redis
async def test_redis_renews_the_lease_and_the_keys(shared_redis: Backend):
    client = redis.Redis.from_url(os.environ["REDIS_URL"], decode_responses=True)
    handle = a_turn()
    await shared_redis.store.begin(handle)
    await shared_redis.store.record(handle, "<a>")
    client.pexpire(f"bankbot:turn:{handle.turn}:alive", 50)  # nearly lapsed
    await shared_redis.store.renew(handle)
    assert client.pttl(f"bankbot:turn:{handle.turn}:alive") > 50
    assert client.pttl(f"bankbot:turn:{handle.turn}:fragments") > LEASE * 1000
    await shared_redis.store.end(handle)
    assert client.exists(f"bankbot:turn:{handle.turn}:alive") == 0
    assert 0 < client.pttl(f"bankbot:turn:{handle.turn}") <= GRACE * 1000
    client.close()


async def test_a_turn_past_the_bound_is_no_longer_kept_nor_shown_in_progress(backend: Backend):
    store = backend.bounded(10)
    handle = a_turn()
    await store.begin(handle)
    assert await store.record(handle, "<a>xx</a>") == 0
    assert await store.record(handle, "<b>yy</b>") == 1  # numbered still: the sockets drop by it
    assert await store.record(handle, "<c>") == 2
    assert store.on_page(handle.conversation) == []
    assert await store.so_far(handle.conversation) == [], "never replayed with a gap"


async def test_in_flight_tells_the_page_what_runs_and_what_was_abandoned(memory: Backend, settings):
    settings.REDIS_URL = ""
    from bankbot.turn_store import _memory

    running, gone = a_turn(message=1), a_turn(message=2)
    gone.conversation = running.conversation
    for handle in (running, gone):
        await _memory.begin(handle)
    memory.lapse(gone)
    await _memory.renew(running)
    assert in_flight(running.conversation) == ({1: running.turn}, {2: gone.turn})
    for handle in (running, gone):
        await _memory.end(handle)


@pytest.fixture
def closed_port() -> str:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return f"redis://127.0.0.1:{port}/0"


async def test_a_redis_that_is_down_keeps_nothing_and_the_turn_goes_on(closed_port: str):
    store = RedisTurnStore(closed_port)
    handle = a_turn()
    await store.begin(handle)
    assert [await store.record(handle, html) for html in ("<a>", "<b>")] == [0, 1]
    await store.renew(handle)
    await store.end(handle)
    assert store.on_page(handle.conversation) == []
    assert await store.so_far(handle.conversation) == []


@pytest.fixture
def hung_port() -> Iterator[str]:
    """Accepts connections and never answers, as a Redis stopped with SIGSTOP."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    listener.close()


def test_a_page_does_not_wait_on_a_hung_redis_beyond_its_short_timeout(hung_port: str):
    store = RedisTurnStore(hung_port)
    page_client = store._blocking.connection_pool.connection_kwargs
    assert page_client["socket_connect_timeout"] <= 1 and page_client["socket_timeout"] <= 2
    # The page is rendered without the turns in flight: the stored conversation.
    assert store.on_page(uuid.uuid4().hex) == []
