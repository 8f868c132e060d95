"""Benchmark (g): the cost of a turn, and of a streamed answer, at scale (issue 23, point 5).

A realistic streaming model (``bench/fake_model.py`` with ``--tokens``): the first token
``FIRST_TOKEN`` seconds after the request, then ``TOKENS`` tokens at ``RATE`` a second,
one server-sent event each — 7 s a call. One Daphne worker (SQLite, the in-memory
channel layer: ``bench.inflight.single_worker``), every customer a separate one sending
"Hello" once (no tool: one model call a turn). In order, in one run:

1. warm-up: ``WARM_CUSTOMERS`` streamed turns (imports, templates, the shared client);
2. **cost**: ``ALONE`` turns at once answered with the offline model's own short
   greeting, then ``ALONE`` answered with the long one — too few to contend (the
   worker is mostly idle while they wait): the worker's CPU per turn for each, and
   per token, the difference over the difference in tokens;
3. **bare**: ``turns`` simultaneous streamed calls straight to the fake model, no app
   in between: the model's own time at this load, right now;
4. **the burst** (the goal): ``turns`` customers, connected, each send their message at
   once; each turn timed from its frame to its final bubble: median, p95 and slowest
   as a ratio to the bare calls' median (and to the model's nominal time), the
   worker's CPU per turn and per token streamed, the machine's load.

Loopback only, bounded in count and time (a turn gives up after ``TURN_TIMEOUT``).
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable
from typing import Any

from bench.inflight import (
    MODEL_PORT,
    SINGLE_PORT,
    WARM_CUSTOMERS,
    FakeModel,
    _connect,
    _measure,
    _turns,
    bare_calls,
    single_worker,
)

FIRST_TOKEN = 1.0  # seconds before a call's first token
TOKENS = 300  # tokens a streamed answer has
RATE = 50.0  # tokens a second after the first
ALONE = 20  # turns at once for the cost per turn and per token


async def _warm(port: int, people: list[dict[str, str]], tag: str) -> int:
    sockets = await _connect(port, people)
    results = await _turns(sockets, tag)
    for ws in sockets:
        await ws.close()
    return sum(r.get("outcome") == "done" for r in results)


def _cost(run: dict[str, Any]) -> dict[str, Any]:
    """The worker's CPU of a measured run, per turn and per word the model streamed."""
    turns, words = run["turns"], run["model"]["words_sent"] or 0
    cpu = run["cpu_seconds"]["workers"]
    return {
        "turns": turns,
        "answered": run["answered"],
        "words_per_turn": words / turns,
        "worker_cpu_ms_per_turn": cpu * 1000 / turns,
        "worker_cpu_s": cpu,
        "median_s": run["median_s"],
        "machine_load": run["machine"]["load_after"],
    }


async def _run(
    port: int,
    people: list[dict[str, str]],
    pid: int,
    model: FakeModel,
    turns: int,
    alone: int,
    log: Callable[[str], None],
) -> dict[str, Any]:
    warm = people[:WARM_CUSTOMERS]
    short = people[WARM_CUSTOMERS : WARM_CUSTOMERS + alone]
    long = people[WARM_CUSTOMERS + alone : WARM_CUSTOMERS + 2 * alone]
    burst = people[WARM_CUSTOMERS + 2 * alone :][:turns]
    log(f"(g) warm-up, {len(warm)} streamed turns")
    warmed = await _warm(port, warm, "g-warm")

    log(f"(g) cost: {alone} turns at once with a short answer, then {alone} with {model.tokens} tokens")
    tokens = model.tokens
    model.set_tokens(0)
    short_run = await _measure(port, short, [pid], model, "g-short", 0.0, None)
    model.set_tokens(tokens)
    long_run = await _measure(port, long, [pid], model, "g-long", 0.0, None)
    short_cost, long_cost = _cost(short_run), _cost(long_run)
    extra_words = long_cost["words_per_turn"] - short_cost["words_per_turn"]
    per_token_ms = (
        (long_cost["worker_cpu_ms_per_turn"] - short_cost["worker_cpu_ms_per_turn"]) / extra_words
        if extra_words > 0
        else None
    )

    log(f"(g) bare: {len(burst)} simultaneous streamed calls straight to the fake model")
    bare = sorted(await bare_calls(len(burst), model.port))
    log(
        f"(g) {len(burst)} turns at once ({model.seconds:g} s a call: first token after "
        f"{model.delay:g} s, {model.tokens} tokens at {model.rate:g}/s)"
    )
    at_once = await _measure(port, burst, [pid], model, "g-burst", 0.0, None)
    bare_median = statistics.median(bare)
    words = (at_once["model"]["words_sent"] or 0) / max(1, at_once["turns"])

    def vs_bare(key: str) -> float | None:
        return at_once[key] / bare_median if at_once.get(key) else None

    burst_cpu_ms = at_once["worker_cpu_ms_per_turn"]
    return {
        "model_seconds": model.seconds,
        "first_token_s": model.delay,
        "tokens": model.tokens,
        "rate": model.rate,
        "warm_up": {"turns": len(warm), "answered": warmed},
        "cost": {
            "short": short_cost,
            "long": long_cost,
            # A turn's own CPU, without the streamed answer's: the short answer's turn.
            "turn_ms": short_cost["worker_cpu_ms_per_turn"],
            "per_token_ms": per_token_ms,
        },
        "bare": {
            "calls": len(bare),
            "median_s": bare_median,
            "slowest_s": bare[-1],
            "median_x": bare_median / model.seconds,
            "slowest_x": bare[-1] / model.seconds,
        },
        "burst": at_once,
        "median_vs_bare": vs_bare("median_s"),
        "p95_vs_bare": vs_bare("p95_s"),
        "slowest_vs_bare": vs_bare("slowest_s"),
        "burst_cpu_ms_per_turn": burst_cpu_ms,
        "burst_cpu_ms_per_token": burst_cpu_ms / words if words else None,
    }


def bench_streaming(
    quick: bool,
    inproc: Callable[..., dict],
    log: Callable[[str], None],
    *,
    turns: int | None = None,
    alone: int | None = None,
    first_token: float = FIRST_TOKEN,
    tokens: int = TOKENS,
    rate: float = RATE,
    port: int = SINGLE_PORT,
    model_port: int = MODEL_PORT,
) -> dict[str, Any]:
    """Part (g); ``turns``, ``alone``, the model's pace and the ports may be set (a
    test runs it tiny, on free ports)."""
    turns = turns or (20 if quick else 200)
    alone = alone or (5 if quick else ALONE)
    log(f"(g) the fake model: first token after {first_token:g} s, {tokens} tokens at {rate:g}/s")
    model = FakeModel(first_token, tokens, rate, port=model_port)
    try:
        with single_worker(
            WARM_CUSTOMERS + 2 * alone + turns,
            inproc,
            log,
            "(g) one worker",
            port=port,
            model_port=model_port,
        ) as (people, pid):
            out = asyncio.run(_run(port, people, pid, model, turns, alone, log))
    finally:
        model.stop()
    return {
        "turns": turns,
        **out,
        "setup": "1 Daphne worker, SQLite, in-memory channel layer, no balancer",
        "goal": "median and p95 <= 1.2x the model's own time (the bare calls' median)",
    }
