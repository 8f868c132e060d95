"""bin/bench's own behaviour (not its timings: benchmarks are not tests)."""

from __future__ import annotations

import socket
import subprocess
import sys

from django.conf import settings

from bench.__main__ import inproc, summary
from bench.streamed import bench_streaming


def test_it_refuses_an_unknown_part_before_starting_anything():
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--parts", "a,zz"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "unknown part(s): zz; choose from a, confirm, d, b, c, e, f, g" in done.stderr
    assert "PostgreSQL" not in done.stderr  # nothing was started


def test_its_summary_sets_each_ratio_against_its_goal():
    report = {
        "postgresql": {
            "a": {"ratio": 1.456},
            "confirm": {
                "ratio_dispute": 1.5,
                "ratio_block": 1.75,
                "statements": {
                    "confirm_raise_dispute": {"count": 16},
                    "bare_dispute_open": {"count": 9},
                    "confirm_block_card": {"count": 14},
                    "bare_card_block": {"count": 7},
                },
            },
        },
        "b": {"throughput_ratio": 0.34, "p99_ratio": 2.0},
        "e": {
            "wall_seconds": 29.94,
            "exit_code": 0,
            "runs": {"corpus": {"wall_seconds": 12.5}, "adversary": {"wall_seconds": 17.44}},
        },
    }
    lines = summary(report).splitlines()
    assert lines[:2] == ["| | what | measured | goal |", "|---|---|---|---|"]
    assert "| a | guarded read vs the bare selector | PostgreSQL 1.46× | ≤ 1.5× |" in lines
    assert any(
        "dispute 1.50× (16 statements vs 9), block 1.75× (14 statements vs 7)" in line
        and line.endswith("| ≤ 1.8× |")
        for line in lines
    )
    assert any(
        "throughput 0.34, p99 2.00×" in line
        and "unguarded endpoint" in line
        and line.endswith("| throughput ≥ 0.7, p99 ≤ 1.5× |")
        for line in lines
    )
    assert any("29.9 s (corpus 12.5 s, adversary 17.4 s; exit code 0)" in line for line in lines)
    assert not any(line.startswith(("| c ", "| d ", "| f ")) for line in lines)  # parts not run


def test_its_summary_gives_the_turns_in_flight_against_their_goal():
    def side(median: float, slowest: float, peak: int, rss: list[float]) -> dict:
        return {
            "turns": 200,
            "answered": 200,
            "median_x": median,
            "slowest_x": slowest,
            "model": {"peak_in_flight": peak},
            "workers": [{"peak_rss_mb": mb} for mb in rss],
            "paced": {"answered": 200, "median_x": 1.01, "slowest_x": 1.05},
        }

    report = {
        "f": {
            "turns": 200,
            "model_delay_s": 5.0,
            "one_worker": side(1.67, 1.69, 200, [190.1]),
            "two_workers": {**side(1.59, 2.23, 187, [141.8, 142.9]), "answered": 198},
        }
    }
    [row] = [line for line in summary(report).splitlines() if line.startswith("| f ")]
    assert "200 simultaneous turns, model 5 s" in row
    assert (
        "one worker: median 1.67×, slowest 1.69×, 200 in flight, peak RSS 190 MB "
        "(paced over 5 s: median 1.01×, slowest 1.05×)"
    ) in row
    assert (
        "two workers: median 1.59×, slowest 2.23×, 187 in flight, peak RSS 142 + 143 MB, "
        "2 not answered" in row
    )
    assert row.endswith("| median ≤ 1.2×, slowest ≤ 2× |")


def test_its_summary_sets_the_guarded_turns_against_the_naive_ones():
    def run(rate: float, failed: int = 0) -> dict:
        return {"per_second": rate, "failed_turns": failed}

    report = {
        "c": {
            "ratio": 0.81,
            "guarded_per_second": 24.3,
            "naive_per_second": 30.0,
            "guarded": [run(24.0), run(24.6, 1)],
            "naive": [run(29.0), run(31.0)],
            "chat": run(24.6, 1),
        }
    }
    [row] = [line for line in summary(report).splitlines() if line.startswith("| c ")]
    assert "guarded chat turns vs naive-harness turns, 50 sockets" in row
    assert "0.81 (24.3 vs 30.0 turns/s, 1 failed)" in row
    assert row.endswith("| ≥ 0.7 |")


def test_its_summary_gives_the_streamed_turns_against_the_models_own_time():
    report = {
        "g": {
            "turns": 200,
            "first_token_s": 1.0,
            "tokens": 300,
            "rate": 50.0,
            "median_vs_bare": 1.134,
            "p95_vs_bare": 1.19,
            "slowest_vs_bare": 1.25,
            "bare": {"median_s": 7.01},
            "burst_cpu_ms_per_turn": 24.56,
            "burst": {"answered": 200, "turns": 200},
            "cost": {"turn_ms": 11.2, "per_token_ms": 0.041},
        }
    }
    [row] = [line for line in summary(report).splitlines() if line.startswith("| g ")]
    assert (
        "200 simultaneous turns, one worker, a streaming model (1 s to the first token, "
        "300 tokens at 50/s)" in row
    )
    assert "median 1.13×, p95 1.19×, slowest 1.25× (bare 7.01 s; 200 of 200 answered)" in row
    assert "24.6 ms a turn in the burst, a turn alone 11.2 ms + 41 µs a token" in row
    assert row.endswith("| median and p95 ≤ 1.2× |")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_streamed_turns_part_runs_on_a_tiny_size():
    """Part (g) end to end, tiny and fast (its own ports): a worker, the streaming fake
    model, every turn answered with the model's tokens, the figures it reports there."""
    report = bench_streaming(
        False,
        inproc,
        lambda text: None,
        turns=3,
        alone=1,
        first_token=0.05,
        tokens=12,
        rate=400.0,
        port=_free_port(),
        model_port=_free_port(),
    )
    assert report["warm_up"]["answered"] == report["warm_up"]["turns"]
    burst = report["burst"]
    assert burst["outcomes"] == {"done": 3} and burst["model"]["calls_per_turn"] == 1
    assert burst["model"]["words_sent"] == 3 * 12  # every turn streamed the whole answer
    assert report["cost"]["long"]["words_per_turn"] == 12
    assert report["cost"]["short"]["answered"] == report["cost"]["long"]["answered"] == 1
    assert report["bare"]["calls"] == 3
    assert report["median_vs_bare"] > 0 and report["burst_cpu_ms_per_turn"] > 0
    assert summary({"g": report}).splitlines()[-1].startswith("| g | 3 simultaneous turns")
