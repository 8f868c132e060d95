"""Benchmark (f): turns in flight (issue 17).

``turns`` customers (200) each send one chat message over the WebSocket at the same
moment; the model is the offline one served over loopback HTTP by
``bench/fake_model.py``, holding every call ``delay`` seconds (5, a real model's
latency). The message is a greeting, which the offline model answers in one call
(the fake model counts them), so a turn's floor is one model latency. First one
Daphne worker alone (SQLite, the in-memory channel layer: the embedded default),
then two workers behind nginx (``bin/scale``: PostgreSQL and Redis from
``bin/services``).

Measured on each side, in the same run:
- bare: as many simultaneous streamed calls straight to the fake model, no app in
  between (the model's latency on this machine, at this load, right now);
- the burst (the goal): every turn's answer time, from its frame being sent to its
  final bubble, as a multiple of the model's latency, median and slowest; the first
  fragment's time; the fake model's ``peak`` (calls held at once: turns in flight)
  and calls per turn; each worker's resident memory from /proc (idle after a
  warm-up, sampled, and ``VmHWM``, the peak), threads and CPU (the event loop's
  thread, the busiest other thread, the rest); the machine's load;
- paced: as many other customers' turns sent one by one, evenly over one model
  latency: as many in flight once the last is sent, arriving steadily.

Loopback only, bounded in count and time (a turn gives up after ``TURN_TIMEOUT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DAPHNE = str(ROOT / ".venv" / "bin" / "daphne")

FRONT_PORT = 8240  # nginx, two workers on 8241, 8242 (bin/scale)
SINGLE_PORT = 8249  # the one worker alone
MODEL_PORT = 8248  # bench/fake_model.py
DATABASE = "bankbot_bench_inflight"
TURN_TIMEOUT = 60.0  # seconds: a turn not answered by then counts as failed
WARM_CUSTOMERS = 6  # one turn each before the burst: imports, templates, the client
MESSAGE = "Hello"  # the offline model greets back: one model call, no tool


# --- the fake model ----------------------------------------------------------------


class FakeModel:
    """``bench/fake_model.py``: every call held ``delay`` seconds before its first
    byte; with ``tokens``, a streamed answer of that many tokens, ``rate`` a second."""

    def __init__(self, delay: float, tokens: int = 0, rate: float = 50.0, port: int = MODEL_PORT) -> None:
        self.delay, self.tokens, self.rate, self.port = delay, tokens, rate, port
        self.proc = subprocess.Popen(
            [
                PYTHON,
                str(ROOT / "bench" / "fake_model.py"),
                "--port",
                str(port),
                "--delay",
                str(delay),
                "--tokens",
                str(tokens),
                "--rate",
                str(rate),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "LOG_LEVEL": "WARNING"},
        )
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line.startswith("ready"):
            self.stop()
            raise RuntimeError(f"the fake model did not start: {line!r}")

    @property
    def seconds(self) -> float:
        """The model's own time for an answer in words: its first token's wait, then
        the rest of its tokens at its rate."""
        return self.delay + max(0, self.tokens - 1) / self.rate

    def set_tokens(self, tokens: int) -> None:
        """Streamed answers from now on: ``tokens`` tokens (0: the offline model's own)."""
        self._call("POST", "/bench/tokens", str(tokens).encode())
        self.tokens = tokens

    def _call(self, method: str, path: str, data: bytes = b"") -> dict[str, Any]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", method=method, data=data if method == "POST" else None
        )
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (loopback)
            return json.loads(response.read())

    def stats(self) -> dict[str, Any]:
        return self._call("GET", "/bench/stats")

    def reset(self) -> None:
        self._call("POST", "/bench/reset")

    def stop(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def bare_calls(count: int, port: int = MODEL_PORT) -> list[float]:
    """``count`` simultaneous streamed chat completions straight to the fake model:
    seconds from each request to its stream's end."""
    body = json.dumps(
        {"model": "fake", "stream": True, "messages": [{"role": "user", "content": MESSAGE}]}
    ).encode()
    head = (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()

    async def one() -> float:
        started = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head + body)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), TURN_TIMEOUT)  # to EOF: Connection: close
        elapsed = time.perf_counter() - started
        writer.close()
        if b"[DONE]" not in data:
            raise RuntimeError(f"the fake model answered oddly: {data[:200]!r}")
        return elapsed

    return list(await asyncio.gather(*(one() for _ in range(count))))


# --- the workers' processes ------------------------------------------------------------


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM (peak RSS) in KiB and Threads of a live process."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            found[key] = int(value.split()[0])
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, every core."""
    values = [int(v) for v in Path("/proc/stat").read_text().split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = values
    tick = os.sysconf("SC_CLK_TCK")
    busy = (user + nice + system + irq + softirq + steal) / tick
    return busy, busy + (idle + iowait) / tick


def wait_healthy(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):  # noqa: S310
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"127.0.0.1:{port} did not answer /healthz") from None
            time.sleep(0.2)


# --- the burst ----------------------------------------------------------------------------


def _frame(index: int, tag: str) -> str:
    return json.dumps(
        {
            "text": MESSAGE,
            "client_message_id": f"f-{tag}-{index}",
            "HEADERS": {"HX-Request": "true", "HX-Trigger": "composer"},
        }
    )


async def _connect(port: int, people: list[dict[str, str]]) -> list[Any]:
    from bench.ws import WebSocket

    origin = f"http://127.0.0.1:{port}"
    sockets = []
    for person in people:
        sockets.append(
            await WebSocket.connect(
                "127.0.0.1",
                port,
                f"/ws/chat/{person['conversation']}/",
                {"Origin": origin, "Cookie": f"sessionid={person['session']}"},
            )
        )
    return sockets


async def _turns(sockets: list[Any], tag: str, pace: float = 0.0) -> list[dict[str, Any]]:
    """One turn on every socket, each timed from its own frame being sent: all at
    once (``pace`` 0), or one every ``pace`` seconds."""
    results: list[dict[str, Any]] = [{} for _ in sockets]
    sent = [0.0] * len(sockets)

    async def listen(index: int, ws: Any) -> None:
        out = results[index]
        while True:
            try:
                fragment = await asyncio.wait_for(ws.recv(), TURN_TIMEOUT * 2)
            except (TimeoutError, ConnectionError, asyncio.IncompleteReadError) as error:
                out["outcome"] = f"no answer ({type(error).__name__})"
                return
            now = time.perf_counter()
            if now - sent[index] > TURN_TIMEOUT:
                out["outcome"] = "no answer (timeout)"
                return
            out.setdefault("first", now - sent[index])
            if 'data-state="failed"' in fragment:
                out["outcome"] = "busy" if "answering many customers" in fragment else "failed"
                return
            if 'data-state="done"' in fragment:
                out["outcome"], out["answer"] = "done", now - sent[index]
                return

    listeners = [asyncio.create_task(listen(i, ws)) for i, ws in enumerate(sockets)]
    begin = time.perf_counter()
    for index, ws in enumerate(sockets):
        if pace:
            await asyncio.sleep(max(0.0, begin + index * pace - time.perf_counter()))
        sent[index] = time.perf_counter()
        await ws.send(_frame(index, tag))
    await asyncio.gather(*listeners)
    for out in results:
        out["send_spread"] = sent[-1] - sent[0]
    return results


async def _sample(pids: list[int], peaks: dict[int, dict[str, int]], stop: asyncio.Event) -> None:
    while not stop.is_set():
        for pid in pids:
            status = proc_status(pid)
            for key in ("VmRSS", "Threads"):
                peaks[pid][key] = max(peaks[pid].get(key, 0), status[key])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.1)


def proc_cpu(pid: int) -> float:
    """CPU seconds of a process, all its threads (ended ones too)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def component_cpu(model_pid: int, database: str | None) -> dict[str, float]:
    """CPU seconds so far of what else a burst keeps busy: the fake model, this
    client, and on the two-worker side PostgreSQL (the backends of ``database``,
    alive when read: the workers pool their connections), Redis and nginx."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"fake_model": proc_cpu(model_pid), "postgresql": 0.0, "redis": 0.0, "nginx": 0.0}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        kind = (
            "postgresql"
            if comm == "postgres" and database and f" {database} " in cmdline
            else {"redis-server": "redis", "nginx": "nginx"}.get(comm)
        )
        if kind:
            used[kind] += sum(int(f) for f in stat[stat.rindex(")") + 2 :].split()[11:13]) / tick
    own = os.times()
    used["client"] = own.user + own.system
    return used


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each live thread of a process (thread id → seconds). In clock
    ticks, each thread's rounded down: right for a busy thread, not for the sum of
    two hundred that each ran a few milliseconds (proc_cpu is for that)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        used[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick
    return used


def _mb(kib: int) -> float:
    return round(kib / 1024, 1)


async def _measure(
    port: int,
    people: list[dict[str, str]],
    pids: list[int],
    model: FakeModel,
    tag: str,
    pace: float,
    database: str | None,
) -> dict[str, Any]:
    """Connect ``people``, run one turn each (at once, or paced), and measure."""
    sockets = await _connect(port, people)
    model.reset()
    idle = {pid: proc_status(pid) for pid in pids}
    peaks: dict[int, dict[str, int]] = {pid: {} for pid in pids}
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample(pids, peaks, stop))
    threads_before = {pid: thread_cpu(pid) for pid in pids}
    cpu_before = {pid: proc_cpu(pid) for pid in pids}
    others_before = component_cpu(model.proc.pid, database)
    busy_before, total_before = machine_busy()
    load_before = os.getloadavg()
    started = time.perf_counter()
    results = await asyncio.wait_for(_turns(sockets, tag, pace), TURN_TIMEOUT * 4)
    wall = time.perf_counter() - started
    busy_after, total_after = machine_busy()
    threads_after = {pid: thread_cpu(pid) for pid in pids}
    cpu_after = {pid: proc_cpu(pid) for pid in pids}
    others_after = component_cpu(model.proc.pid, database)
    stop.set()
    await sampler
    stats = model.stats()
    after = {pid: proc_status(pid) for pid in pids}
    for ws in sockets:
        await ws.close()

    delay = model.seconds
    answered = sorted(r["answer"] for r in results if r.get("outcome") == "done")
    outcomes: dict[str, int] = {}
    for r in results:
        outcomes[r.get("outcome", "?")] = outcomes.get(r.get("outcome", "?"), 0) + 1
    firsts = sorted(r["first"] for r in results if "first" in r)
    workers = []
    for pid in pids:
        spent = {
            tid: threads_after[pid][tid] - threads_before[pid].get(tid, 0.0) for tid in threads_after[pid]
        }
        others = sorted((v for tid, v in spent.items() if tid != pid), reverse=True)
        total, loop, busiest = (
            cpu_after[pid] - cpu_before[pid],
            spent.get(pid, 0.0),
            (others[0] if others else 0.0),
        )
        workers.append(
            {
                "pid": pid,
                "idle_rss_mb": _mb(idle[pid]["VmRSS"]),
                "peak_rss_mb": _mb(after[pid]["VmHWM"]),
                "sampled_peak_rss_mb": _mb(peaks[pid].get("VmRSS", 0)),
                "rss_after_mb": _mb(after[pid]["VmRSS"]),
                "idle_threads": idle[pid]["Threads"],
                "peak_threads": peaks[pid].get("Threads", 0),
                # The event loop's thread; the busiest other one (the thread-sensitive
                # executor that runs every database_sync_to_async call: message_accept);
                # the rest (the turn pool's threads, and Daphne's).
                "cpu_seconds": round(total, 2),
                "cpu_seconds_loop": round(loop, 2),
                "cpu_seconds_busiest_other_thread": round(busiest, 2),
                "cpu_seconds_other_threads": round(max(0.0, total - loop - busiest), 2),
            }
        )
    done = len(answered)
    cpu_total = sum(w["cpu_seconds"] for w in workers)
    return {
        "turns": len(results),
        "answered": done,
        "outcomes": outcomes,
        "pace_s": pace,
        "send_spread_s": round(results[0]["send_spread"], 3) if results else 0,
        "median_s": statistics.median(answered) if answered else None,
        "p90_s": answered[int(0.9 * (done - 1))] if answered else None,
        "p95_s": answered[int(0.95 * (done - 1))] if answered else None,
        "p95_x": answered[int(0.95 * (done - 1))] / delay if answered else None,
        "slowest_s": answered[-1] if answered else None,
        "fastest_s": answered[0] if answered else None,
        "median_x": statistics.median(answered) / delay if answered else None,
        "slowest_x": answered[-1] / delay if answered else None,
        "first_fragment_median_s": statistics.median(firsts) if firsts else None,
        "first_fragment_slowest_s": firsts[-1] if firsts else None,
        "wall_s": wall,
        "model": {
            "peak_in_flight": stats["peak"],
            "calls": stats["served"],
            "calls_per_turn": stats["served"] / len(results) if results else None,
            "words_sent": stats.get("words_sent"),
        },
        "workers": workers,
        "worker_cpu_ms_per_turn": round(cpu_total * 1000 / len(results), 1) if results else None,
        "peak_rss_mb": max(w["peak_rss_mb"] for w in workers),
        "cpu_seconds": {
            "workers": round(cpu_total, 2),
            **{kind: round(others_after[kind] - others_before[kind], 2) for kind in others_after},
            "machine": round(busy_after - busy_before, 2),
        },
        "machine": {
            "load_before": [round(v, 2) for v in load_before],
            "load_after": [round(v, 2) for v in os.getloadavg()],
            "busy_share": round((busy_after - busy_before) / max(total_after - total_before, 1e-9), 3),
        },
        # Every turn's times in the order sent (seconds, ms precision): the waves show here.
        "answer_times_s": [round(r["answer"], 3) if r.get("outcome") == "done" else None for r in results],
        "first_fragment_times_s": [round(r["first"], 3) if "first" in r else None for r in results],
    }


async def _side(
    port: int,
    people: list[dict[str, str]],
    pids: list[int],
    model: FakeModel,
    tag: str,
    log: Callable[[str], None],
    database: str | None,
) -> dict[str, Any]:
    """Warm-up, the bare calls, the burst (the goal), then the same number of turns
    paced evenly over one model latency (as many in flight, arriving steadily)."""
    warm, burst, paced = (people[:WARM_CUSTOMERS], people[WARM_CUSTOMERS::2], people[WARM_CUSTOMERS + 1 :: 2])
    log(f"(f) {tag}: warm-up, {len(warm)} turns")
    warm_sockets = await _connect(port, warm)
    warm_results = await _turns(warm_sockets, f"{tag}-warm")
    for ws in warm_sockets:
        await ws.close()
    log(f"(f) {tag}: bare: {len(burst)} simultaneous calls straight to the fake model")
    bare = sorted(await bare_calls(len(burst)))
    log(f"(f) {tag}: {len(burst)} turns at once (the model takes {model.delay:g} s a call)")
    at_once = await _measure(port, burst, pids, model, f"{tag}-burst", 0.0, database)
    pace = model.delay / len(paced)
    log(f"(f) {tag}: {len(paced)} turns, one every {pace * 1000:.0f} ms (spread over one model latency)")
    spread = await _measure(port, paced, pids, model, f"{tag}-paced", pace, database)
    delay = model.delay
    return {
        **at_once,
        "bare": {
            "calls": len(bare),
            "median_s": statistics.median(bare),
            "slowest_s": bare[-1],
            "median_x": statistics.median(bare) / delay,
            "slowest_x": bare[-1] / delay,
        },
        "median_vs_bare": (at_once["median_s"] / statistics.median(bare) if at_once["median_s"] else None),
        "slowest_vs_bare": at_once["slowest_s"] / bare[-1] if at_once["slowest_s"] else None,
        "paced": spread,
        "warm_up": {
            "turns": len(warm_results),
            "answered": sum(r.get("outcome") == "done" for r in warm_results),
        },
    }


def _model_env(model_port: int = MODEL_PORT) -> dict[str, str]:
    return {
        "BANKBOT_MODEL": "fake",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{model_port}/v1",
        "OPENAI_API_KEY": "x",
        "LOG_LEVEL": "WARNING",
        "DEBUG": "0",
        "DJANGO_SETTINGS_MODULE": "bench.settings",
    }


@contextlib.contextmanager
def single_worker(
    customers: int,
    inproc: Callable[..., dict],
    log: Callable[[str], None],
    tag: str = "(f) one worker",
    port: int = SINGLE_PORT,
    model_port: int = MODEL_PORT,
) -> Iterator[tuple[list[dict[str, str]], int]]:
    """One Daphne worker on ``port`` (SQLite, the in-memory channel layer, no balancer,
    the fake model on ``model_port``) for ``customers`` customers of their own: yields
    them and its pid."""
    work = Path(tempfile.mkdtemp(prefix="bankbot-bench-f1-"))
    people_path = work / "people.json"
    url = f"sqlite:///{work}/bench.sqlite3"
    log(f"{tag}: {customers} customers on SQLite")
    inproc(url, {"parts": ["ws_setup"], "sockets": customers, "ws_path": str(people_path), "transactions": 0})
    people = json.loads(people_path.read_text())
    env = {**os.environ, **_model_env(model_port), "DATABASE_URL": url}
    env.pop("REDIS_URL", None)
    log_file = open(work / "daphne.log", "w")  # noqa: SIM115 (closed below)
    worker = subprocess.Popen(
        [DAPHNE, "-b", "127.0.0.1", "-p", str(port), "bench.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_healthy(port)
        yield people, worker.pid
    finally:
        worker.terminate()
        try:
            worker.wait(15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        log_file.close()
        errors = [
            line
            for line in (work / "daphne.log").read_text().splitlines()
            if "Traceback" in line or "ERROR" in line
        ]
        if errors:
            log(f"{tag}: its log had {len(errors)} error lines, e.g. {errors[0][:160]}")
        shutil.rmtree(work, ignore_errors=True)


def one_worker(
    turns: int, model: FakeModel, inproc: Callable[..., dict], log: Callable[[str], None]
) -> dict[str, Any]:
    """One Daphne worker on SQLite and the in-memory channel layer, no balancer."""
    with single_worker(2 * turns + WARM_CUSTOMERS, inproc, log) as (people, pid):
        out = asyncio.run(_side(SINGLE_PORT, people, [pid], model, "one worker", log, None))
        out["setup"] = "1 Daphne worker, SQLite, in-memory channel layer, no balancer"
        return out


def two_workers(
    turns: int,
    model: FakeModel,
    pg_url: str,
    inproc: Callable[..., dict],
    fresh_pg_database: Callable[[str, str], str],
    log: Callable[[str], None],
) -> dict[str, Any]:
    """Two Daphne workers behind nginx (bin/scale), PostgreSQL (pooled) and Redis."""
    work = Path(tempfile.mkdtemp(prefix="bankbot-bench-f2-"))
    people_path = work / "people.json"
    url = fresh_pg_database(pg_url, DATABASE)
    log(f"(f) two workers: {2 * turns + WARM_CUSTOMERS} customers on PostgreSQL")
    inproc(
        url,
        {
            "parts": ["ws_setup"],
            "sockets": 2 * turns + WARM_CUSTOMERS,
            "ws_path": str(people_path),
            "transactions": 0,
        },
    )
    people = json.loads(people_path.read_text())
    scale_dir = work / "scale"
    scale_env = {
        **os.environ,
        **_model_env(),
        "SCALE_DATABASE_URL": url,
        "SCALE_SEED": "0",
        "WORKERS": "2",
        "PORT": str(FRONT_PORT),
        "WORKER_PORT_BASE": str(FRONT_PORT),
        "SCALE_DIR": str(scale_dir),
        "SCALE_ASGI_APP": "bench.asgi:application",
    }
    log(f"(f) two workers: bin/scale start (nginx on 127.0.0.1:{FRONT_PORT})")
    try:
        subprocess.run([str(ROOT / "bin" / "scale"), "start"], env=scale_env, check=True, capture_output=True)
        pids = [int(p.read_text()) for p in sorted(scale_dir.glob("worker-*.pid"))]
        out = asyncio.run(_side(FRONT_PORT, people, pids, model, "two workers", log, DATABASE))
        out["setup"] = (
            "2 Daphne workers behind nginx (bin/scale), PostgreSQL (pooled, "
            "DB_POOL_MAX_SIZE 20 a worker) and Redis (bin/services)"
        )
        return out
    finally:
        subprocess.run([str(ROOT / "bin" / "scale"), "stop"], env=scale_env, check=False, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def bench_inflight(
    pg_url: str,
    quick: bool,
    inproc: Callable[..., dict],
    fresh_pg_database: Callable[[str, str], str],
    log: Callable[[str], None],
) -> dict[str, Any]:
    turns, delay = (50 if quick else 200), 5.0
    log(f"(f) the fake model on 127.0.0.1:{MODEL_PORT}, {delay:g} s a call")
    model = FakeModel(delay)
    try:
        one = one_worker(turns, model, inproc, log)
        two = two_workers(turns, model, pg_url, inproc, fresh_pg_database, log)
    finally:
        model.stop()
    return {
        "turns": turns,
        "model_delay_s": delay,
        "message": MESSAGE,
        "one_worker": one,
        "two_workers": two,
        "goal": "median <= 1.2x the model's latency, slowest <= 2x",
    }
