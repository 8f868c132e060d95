"""``python -m bench`` (or ``bin/bench``): every benchmark, side by side, one run.

    bin/bench                     all parts: a confirm d b c e f g
    bin/bench --parts a,confirm   some of them
    bin/bench --quick             smaller sizes, for a smoke run
    bin/bench --json              the whole report on stdout instead of the summary

Loopback only, bounded in time and count. Says on stderr what it is doing, prints a
Markdown summary of the ratios against their goals, and writes every figure to
reports/bench.json. Benchmarks are not tests: nothing asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
HTTP_PORT, HTTP_WORKER_BASE = 8200, 8210


def machine() -> dict[str, Any]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    mem_kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(mem_kb / 2**20, 1),
        "python": platform.python_version(),
    }


def services_env() -> dict[str, str]:
    out = subprocess.run(
        [str(ROOT / "bin" / "services"), "start"], check=True, text=True, capture_output=True
    ).stdout
    return dict(re.findall(r"export (\w+)=(\S+)", out))


def fresh_pg_database(base_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return base_url.rsplit("/", 1)[0] + "/" + name


def inproc(database_url: str, job: dict[str, Any], settings: str = "config.settings") -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": settings,
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [PYTHON, str(ROOT / "bench" / "inproc.py"), json.dumps(job)],
        env=env,
        cwd=ROOT,
        check=True,
        text=True,
        capture_output=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def wrk(env: dict[str, str], seconds: int, connections: int) -> dict[str, Any]:
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "30s",
            "-s",
            str(ROOT / "bench" / "lua" / "post.lua"),
            f"http://127.0.0.1:{HTTP_PORT}",
        ],
        env={**os.environ, **env, "BENCH_THREADS": "2", "BENCH_PORT": str(HTTP_PORT)},
        check=True,
        text=True,
        capture_output=True,
    ).stdout
    result = json.loads(out.split("BENCH ", 1)[1].splitlines()[0])
    result["rps"] = result["requests"] / result["seconds"]
    return result


def compare_http(
    setup: dict[str, Any], ids: Path, unguarded_ids: Path, seconds: int, connections: int
) -> dict[str, Any]:
    """(b): the confirm endpoint vs an unguarded endpoint that runs the same service
    (``dispute_open``) straight away, as a naive app would (bench/urls.py); same two
    Daphne workers behind nginx, PostgreSQL, alternating runs (unguarded, confirm,
    unguarded, confirm), every request a fresh dispute on both sides. One run of the
    one-INSERT view too, the floor of any request on this stack."""
    env = {"BENCH_SESSION": setup["session"], "BENCH_IDS": str(ids)}
    unguarded_env = {
        **env,
        "BENCH_PATH": "/bench/unguarded-dispute",
        "BENCH_IDS": str(unguarded_ids),
        "BENCH_BODY": "dispute",
    }
    bare_env = {**env, "BENCH_PATH": "/bench/bare-insert"}
    wrk(bare_env, 3, connections)  # warm-up: connections, imports, caches
    runs: dict[str, list[dict[str, Any]]] = {"unguarded": [], "confirm": [], "bare_insert": []}
    skipped = {"unguarded": 0, "confirm": 0}

    def fresh(side: str, side_env: dict[str, str]) -> dict[str, Any]:
        """A run on lines no earlier run of this side used: wrk starts each run at
        its file's top, each of its 2 threads on its own stripe (every other line),
        so skipping twice the requests made so far skips every used line."""
        lines = Path(side_env["BENCH_IDS"]).read_text().splitlines()
        part = Path(f"{side_env['BENCH_IDS']}.{side}.{len(runs[side])}")
        part.write_text("\n".join(lines[skipped[side] :]) + "\n")
        result = wrk({**side_env, "BENCH_IDS": str(part)}, seconds, connections)
        skipped[side] += 2 * result["requests"]
        result["first_line"] = skipped[side] - 2 * result["requests"]
        return result

    for _ in range(2):
        runs["unguarded"].append(fresh("unguarded", unguarded_env))
        runs["confirm"].append(fresh("confirm", env))
    runs["bare_insert"].append(wrk(bare_env, seconds, connections))
    confirmed = sum(r["requests"] for r in runs["confirm"])
    disputed = sum(r["requests"] for r in runs["unguarded"])

    def mean(side: str, key: str) -> float:
        return sum(r[key] for r in runs[side]) / len(runs[side])

    return {
        "runs": runs,
        "connections": connections,
        "seconds_per_run": seconds,
        "proposals": setup["proposals"],
        "confirms_sent": confirmed,
        "unguarded_sent": disputed,
        "all_fresh": max(skipped.values()) <= setup["proposals"],
        "throughput_ratio": mean("confirm", "rps") / mean("unguarded", "rps"),
        "p99_ratio": mean("confirm", "p99_ms") / mean("unguarded", "p99_ms"),
        "p50_ratio": mean("confirm", "p50_ms") / mean("unguarded", "p50_ms"),
        "throughput_ratio_vs_bare_insert": mean("confirm", "rps") / mean("bare_insert", "rps"),
        "goal": "throughput >= 0.7, p99 <= 1.5x (vs the unguarded endpoint)",
    }


async def _sockets(
    people: list[dict[str, str]], path_for: Any, message_for: Any, done: Any, turns: int
) -> dict[str, Any]:
    from bench.ws import WebSocket

    origin = f"http://127.0.0.1:{HTTP_PORT}"
    sockets = [
        await WebSocket.connect(
            "127.0.0.1", HTTP_PORT, path_for(p), {"Origin": origin, "Cookie": f"sessionid={p['session']}"}
        )
        for p in people
    ]
    failures = frames = 0

    async def talk(index: int, ws: Any) -> None:
        nonlocal failures, frames
        for turn in range(turns):
            await ws.send(message_for(index, turn))
            while True:
                try:  # a turn that never ends counts as failed instead of hanging the run
                    fragment = await asyncio.wait_for(ws.recv(), 60)
                except TimeoutError:
                    failures += 1
                    break
                frames += 1
                if 'data-state="failed"' in fragment:
                    failures += 1
                    break
                if done(fragment):
                    break

    cpu_before, started = _cpu_seconds(), time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(talk(i, ws) for i, ws in enumerate(sockets))), 600)
    wall, cpu_after = time.perf_counter() - started, _cpu_seconds()
    for ws in sockets:
        await ws.close()
    total = len(sockets) * turns
    # CPU per turn (per echo) of each kind of process, over the timed part alone.
    cpu = {kind: round((cpu_after[kind] - cpu_before[kind]) * 1000 / total, 3) for kind in cpu_after}
    return {
        "sockets": len(sockets),
        "turns": total,
        "seconds": wall,
        "per_second": total / wall,
        "failed_turns": failures,
        "frames_per_turn": frames / total,
        "cpu_ms_per_turn": cpu,
    }


# The database (b) and (c) run on; its backends are told apart by their command line.
LIVE_DATABASE = "bankbot_bench_http"


def _cpu_kind(comm: str, cmdline: str) -> str | None:
    """Which of the processes a WebSocket run keeps busy this is, if any."""
    if comm == "daphne" and "bench.asgi" in cmdline:
        return "workers"
    if comm == "postgres" and f" {LIVE_DATABASE} " in cmdline:  # "postgres: user db host"
        return "postgresql"
    return {"redis-server": "redis", "nginx": "nginx"}.get(comm)


def _cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by each kind of process, by this client, and by the
    machine as a whole (every core's busy time: other work on a shared machine
    too). PostgreSQL counts the backends of the benchmark's database that are
    alive when this is read: the workers pool their connections, so they are."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"workers": 0.0, "postgresql": 0.0, "redis": 0.0, "nginx": 0.0}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended meanwhile
            continue
        kind = _cpu_kind(stat[stat.index("(") + 1 : stat.rindex(")")], cmdline)
        if kind:  # utime, stime
            used[kind] += sum(int(f) for f in stat[stat.rindex(")") + 2 :].split()[11:13]) / tick
    own = os.times()
    used["client"] = own.user + own.system
    user, nice, system, idle, iowait, irq, softirq, steal = (
        int(v) for v in Path("/proc/stat").read_text().split()[1:9]
    )
    used["machine"] = (user + nice + system + irq + softirq + steal) / tick
    return used


def compare_ws(people: list[dict[str, Any]], turns: int) -> dict[str, Any]:
    """(c): guarded chat turns per second with the offline model over 50 sockets vs
    naive-harness turns (bench/asgi.py: the same turn through ``NaiveHarness``, no
    output check) on the same workers, alternating naive, guarded, naive, guarded,
    each run on its own 50 customers (the chat allows 10 messages a minute per
    customer); and a bare echo consumer, for scale."""
    month = f"{datetime.date.today():%Y-%m}"

    def chat_frame(index: int, turn: int) -> str:
        # A turn with a tool call: the offline model reads the statement, then answers.
        return json.dumps(
            {
                "text": f"Show my statement for {month}",
                "client_message_id": f"b-{index}-{turn}",
                "HEADERS": {"HX-Request": "true", "HX-Trigger": "composer"},
            }
        )

    def echo_run() -> dict[str, Any]:
        # The echo has no rate limit: more messages, for a rate worth the name.
        return asyncio.run(
            _sockets(
                people[:50], lambda p: "/ws/bench-echo/", lambda i, t: chat_frame(i, t), lambda f: True, 100
            )
        )

    def turn_run(group: list[dict[str, Any]]) -> dict[str, Any]:
        return asyncio.run(
            _sockets(
                group,
                lambda p: f"/ws/chat/{p['conversation']}/",
                chat_frame,
                lambda f: 'data-state="done"' in f,
                turns,
            )
        )

    guarded = [p for p in people if not p.get("naive")]
    naive = [p for p in people if p.get("naive")]
    size = len(guarded) // 2
    echo_run()  # warm-up
    echo = echo_run()
    runs: dict[str, list[dict[str, Any]]] = {"naive": [], "guarded": []}
    for n in range(2):
        runs["naive"].append(turn_run(naive[n * size : (n + 1) * size]))
        runs["guarded"].append(turn_run(guarded[n * size : (n + 1) * size]))

    def rate(side: str) -> float:
        return sum(r["per_second"] for r in runs[side]) / len(runs[side])

    return {
        "echo": [echo],
        "naive": runs["naive"],
        "guarded": runs["guarded"],
        "chat": runs["guarded"][-1],
        "ratio": rate("guarded") / rate("naive"),
        "guarded_per_second": rate("guarded"),
        "naive_per_second": rate("naive"),
        "ratio_vs_echo": rate("guarded") / echo["per_second"],
        "goal": ">= 0.7 (vs naive-harness turns)",
    }


def bench_live(pg_url: str, parts: set[str], quick: bool) -> dict[str, Any]:
    """(b) and (c) on two Daphne workers behind nginx, PostgreSQL and Redis."""
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: run the benchmarks with bin/bench, which installs it")
    url = fresh_pg_database(pg_url, LIVE_DATABASE)
    work = Path(tempfile.mkdtemp(prefix="bankbot-bench-"))
    ids, people_path = work / "proposals.txt", work / "people.json"
    unguarded_ids = work / "unguarded.txt"
    inproc(url, {"parts": []})  # migrate
    proposals = 3_000 if quick else 20_000
    # (c): two groups of 50 customers for the guarded runs, two for the naive ones.
    setup = inproc(
        url,
        {
            "parts": ["http_setup", "ws_setup"],
            "proposals": proposals,
            "ids_path": str(ids),
            "unguarded_path": str(unguarded_ids),
            "sockets": 200,
            "naive": 100,
            "ws_path": str(people_path),
        },
    )
    scale_env = {
        **os.environ,
        "SCALE_DATABASE_URL": url,
        "SCALE_SEED": "0",
        "WORKERS": "2",
        "PORT": str(HTTP_PORT),
        "WORKER_PORT_BASE": str(HTTP_WORKER_BASE),
        "SCALE_DIR": str(work / "scale"),
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "SCALE_ASGI_APP": "bench.asgi:application",
        "LOG_LEVEL": "WARNING",
    }
    subprocess.run([str(ROOT / "bin" / "scale"), "start"], env=scale_env, check=True, capture_output=True)
    out: dict[str, Any] = {}
    try:
        if "b" in parts:
            out["b"] = compare_http(
                setup["http_setup"], ids, unguarded_ids, seconds=5 if quick else 15, connections=32
            )
        if "c" in parts:
            out["c"] = compare_ws(json.loads(people_path.read_text()), turns=3 if quick else 8)
    finally:
        subprocess.run([str(ROOT / "bin" / "scale"), "stop"], env=scale_env, check=False, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    return out


def bench_lab() -> dict[str, Any]:
    """(e): the whole lab corpus, both harnesses, both customer behaviours, then the
    adversary's headline run (guarded, confirm-all): the goal is for the two together."""
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    runs = {}
    for name, extra in (
        ("corpus", ["--harness", "both", "--customer", "both"]),
        # The headline run issue 13 names: the adversary, the guarded
        # harness, a customer who confirms every card.
        ("adversary", ["--model", "adversary", "--harness", "guarded", "--customer", "confirm-all"]),
    ):
        step(f"(e) the lab: {name}")
        started = time.perf_counter()
        done = subprocess.run(
            [PYTHON, "manage.py", "injectionlab", "-v", "0", *extra],
            cwd=ROOT,
            env=env,
            text=True,
            capture_output=True,
        )
        runs[name] = {
            "wall_seconds": time.perf_counter() - started,
            "exit_code": done.returncode,
            "tail": done.stdout.strip().splitlines()[-12:],
        }
    return {
        "wall_seconds": sum(r["wall_seconds"] for r in runs.values()),
        "exit_code": max(r["exit_code"] for r in runs.values()),
        "runs": runs,
        "goal": "< 60 s on two cores",
    }


PARTS = ("a", "confirm", "d", "b", "c", "e", "f", "g")
# The parts that need PostgreSQL and Redis (bin/services); e and g need neither.
SERVICE_PARTS = frozenset({"a", "confirm", "d", "b", "c", "f"})
_started = time.monotonic()


def step(text: str) -> None:
    """Progress, on stderr: the summary on stdout stays clean."""
    print(f"==> [{time.monotonic() - _started:5.0f} s] {text}", file=sys.stderr, flush=True)


def _x(value: float) -> str:
    return f"{value:.2f}×"


def summary(report: dict[str, Any]) -> str:
    """The ratios of a report against their goals, as a Markdown table."""
    rows = []
    engines = [
        (name, report[key])
        for name, key in (("PostgreSQL", "postgresql"), ("SQLite", "sqlite"))
        if key in report
    ]
    if any("a" in figures for _, figures in engines):
        rows.append(
            (
                "a",
                "guarded read vs the bare selector",
                ", ".join(f"{name} {_x(f['a']['ratio'])}" for name, f in engines if "a" in f),
                "≤ 1.5×",
            )
        )
    if any("confirm" in figures for _, figures in engines):

        def statements(f: dict[str, Any], confirm: str, bare: str) -> str:
            counted = f["confirm"].get("statements")
            if not counted:
                return ""
            return f" ({counted[confirm]['count']} statements vs {counted[bare]['count']})"

        rows.append(
            (
                "confirm",
                "confirm-plus-execute vs the bare service",
                "; ".join(
                    f"{name} dispute {_x(f['confirm']['ratio_dispute'])}"
                    f"{statements(f, 'confirm_raise_dispute', 'bare_dispute_open')}, "
                    f"block {_x(f['confirm']['ratio_block'])}"
                    f"{statements(f, 'confirm_block_card', 'bare_card_block')}"
                    for name, f in engines
                    if "confirm" in f
                ),
                "≤ 1.8×",
            )
        )
    if "d" in report:
        d = report["d"]
        rows.append(
            (
                "d",
                "statement, 1,000,000 transactions vs 1,000",
                f"busy month {_x(d['ratio_busy'])} (vs an equal page "
                f"{_x(d['ratio_busy_vs_full_page'])}), history {_x(d['ratio_history'])}; "
                f"memory: busy vs an equal page {_x(d['memory_ratio_busy_vs_full_page'])}, "
                f"history {_x(d['memory_ratio_history'])}",
                "≤ 1.5×, memory flat",
            )
        )
    if "b" in report:
        b = report["b"]
        rows.append(
            (
                "b",
                "confirm endpoint vs an unguarded endpoint running the same service, 2 workers, PostgreSQL",
                f"throughput {b['throughput_ratio']:.2f}, p99 {_x(b['p99_ratio'])}",
                "throughput ≥ 0.7, p99 ≤ 1.5×",
            )
        )
    if "c" in report:
        c = report["c"]
        if "naive_per_second" in c:
            failed = sum(r["failed_turns"] for r in c["guarded"] + c["naive"])
            rows.append(
                (
                    "c",
                    "guarded chat turns vs naive-harness turns, 50 sockets",
                    f"{c['ratio']:.2f} ({c['guarded_per_second']:.1f} vs "
                    f"{c['naive_per_second']:.1f} turns/s, {failed} failed)",
                    "≥ 0.7",
                )
            )
        else:  # a report from before the naive turn
            rows.append(
                (
                    "c",
                    "chat turns vs echo frames, 50 sockets",
                    f"{c['ratio']:.4f} ({c['chat']['per_second']:.1f} turns/s, "
                    f"{c['chat']['failed_turns']} failed)",
                    "≥ 0.3",
                )
            )
    if "e" in report:
        e = report["e"]
        parts_e = ", ".join(f"{name} {run['wall_seconds']:.1f} s" for name, run in e.get("runs", {}).items())
        rows.append(
            (
                "e",
                "the lab corpus (both harnesses and behaviours) + the adversary",
                f"{e['wall_seconds']:.1f} s ({parts_e}; exit code {e['exit_code']})",
                "< 60 s",
            )
        )
    if "f" in report:
        f = report["f"]

        def side(name: str, s: dict[str, Any]) -> str:
            if not s.get("answered"):
                return f"{name}: no turn answered ({s.get('outcomes')})"
            unanswered = s["turns"] - s["answered"]
            rss = " + ".join(f"{w['peak_rss_mb']:.0f}" for w in s["workers"])
            paced = s.get("paced") or {}
            return (
                f"{name}: median {_x(s['median_x'])}, slowest {_x(s['slowest_x'])}, "
                f"{s['model']['peak_in_flight']} in flight, peak RSS {rss} MB"
                + (f", {unanswered} not answered" if unanswered else "")
                + (
                    f" (paced over {f['model_delay_s']:g} s: median "
                    f"{_x(paced['median_x'])}, slowest {_x(paced['slowest_x'])})"
                    if paced.get("answered")
                    else ""
                )
            )

        rows.append(
            (
                "f",
                f"{f['turns']} simultaneous turns, model {f['model_delay_s']:g} s: "
                "answer time ÷ the model's latency",
                "; ".join(
                    side(name, f[key])
                    for name, key in (("one worker", "one_worker"), ("two workers", "two_workers"))
                    if key in f
                ),
                "median ≤ 1.2×, slowest ≤ 2×",
            )
        )
    if "g" in report:
        g = report["g"]
        burst, cost = g["burst"], g["cost"]
        per_token = cost.get("per_token_ms")
        measured = (
            f"median {_x(g['median_vs_bare'])}, p95 {_x(g['p95_vs_bare'])}, slowest "
            f"{_x(g['slowest_vs_bare'])} (bare {g['bare']['median_s']:.2f} s; "
            f"{burst['answered']} of {burst['turns']} answered); worker CPU "
            f"{g['burst_cpu_ms_per_turn']:.1f} ms a turn in the burst, a turn alone "
            f"{cost['turn_ms']:.1f} ms + "
            + (f"{per_token * 1000:.0f} µs a token" if per_token is not None else "? a token")
        )
        rows.append(
            (
                "g",
                f"{g['turns']} simultaneous turns, one worker, a streaming model "
                f"({g['first_token_s']:g} s to the first token, {g['tokens']} tokens "
                f"at {g['rate']:g}/s): answer time ÷ the model's own",
                measured,
                "median and p95 ≤ 1.2×",
            )
        )
    lines = ["| | what | measured | goal |", "|---|---|---|---|"]
    lines += [f"| {part} | {what} | {measured} | {goal} |" for part, what, measured, goal in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="bin/bench")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, from: {', '.join(PARTS)}")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, a smoke run")
    parser.add_argument("--json", action="store_true", help="print the whole report instead of the summary")
    args = parser.parse_args()
    parts = {part.strip() for part in args.parts.split(",") if part.strip()}
    unknown = sorted(parts - set(PARTS))
    if unknown or not parts:
        parser.error(
            f"unknown part(s): {', '.join(unknown) or '(none given)'}; choose from {', '.join(PARTS)}"
        )
    quick = args.quick
    # A throwaway key shared by every process the benchmark starts (the sessions its
    # setup signs are checked by its workers): the settings refuse the demo key.
    os.environ.setdefault("SECRET_KEY", f"bankbot-bench-{secrets.token_hex(24)}")
    report: dict[str, Any] = {"machine": machine(), "quick": quick}
    pg = ""
    if parts & SERVICE_PARTS:
        step("PostgreSQL and Redis (bin/services)")
        pg = services_env()["DATABASE_URL"]
    sizes = {"read_calls": 20 if quick else 100, "write_calls": 5 if quick else 20}
    if parts & {"a", "confirm"}:
        chosen = sorted(parts & {"a", "confirm"})
        step(f"{' and '.join(chosen)} on SQLite")
        with tempfile.TemporaryDirectory() as tmp:
            report["sqlite"] = inproc(f"sqlite:///{tmp}/bench.sqlite3", {"parts": chosen, **sizes})
        step(f"{' and '.join(chosen)} on PostgreSQL")
        report["postgresql"] = inproc(fresh_pg_database(pg, "bankbot_bench"), {"parts": chosen, **sizes})
    if "d" in parts:
        big = 100_000 if quick else 1_000_000
        step(f"d: a statement on {big:,} transactions vs 1,000 (loading the table takes the longest)")
        report["d"] = inproc(
            fresh_pg_database(pg, "bankbot_bench_big"),
            {
                "parts": ["d"],
                "big": big,
                "small": 1_000,
                "d_calls": 10,
                "population": 200 if quick else 2_000,
            },
        )["d"]
    if parts & {"b", "c"}:
        step(
            f"{' and '.join(sorted(parts & {'b', 'c'}))}: two Daphne workers behind nginx "
            "(bin/scale), wrk and 50 WebSockets"
        )
        report.update(bench_live(pg, parts, quick))
    if "e" in parts:
        step("e: the lab corpus")
        report["e"] = bench_lab()
    if "f" in parts:
        from bench.inflight import bench_inflight

        step(
            "f: turns in flight: simultaneous chat turns against a fake model that takes "
            "5 s a call, one worker then two behind nginx"
        )
        report["f"] = bench_inflight(pg, quick, inproc, fresh_pg_database, step)
    if "g" in parts:
        from bench.streamed import bench_streaming

        step(
            "g: a turn's cost, and simultaneous turns against a streaming model (first "
            "token after 1 s, 300 tokens at 50/s), one worker"
        )
        report["g"] = bench_streaming(quick, inproc, step)
    out = ROOT / "reports" / "bench.json"
    out.parent.mkdir(exist_ok=True)
    # A run of some parts keeps the others' last figures; each part says when.
    for key, value in report.items():
        if isinstance(value, dict) and key != "machine":
            value["measured_at"] = report["machine"]["date"]
    previous = json.loads(out.read_text()) if out.exists() else {}
    out.write_text(json.dumps({**previous, **report}, indent=2))
    step(f"done; every figure is in {out.relative_to(ROOT)}")
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        print(summary(report))


if __name__ == "__main__":
    main()
