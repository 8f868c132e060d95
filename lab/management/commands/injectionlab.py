"""``manage.py injectionlab``: play the Injection Lab corpus (or the files given) through
the naive and the guarded harness, in an isolated database, and score it. Options, output
and exit statuses (1: the guarded harness let something through; 2: a file or a setup is
invalid): docs/injection-lab.md, "Run it".
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lab.clients import model_label
from lab.headline import ADVERSARY, HEADLINE_PATH, headline, headline_write
from lab.judge import CONFIRM_ALL
from lab.loader import LabFileError, builtin_paths, load_paths
from lab.report import report_data, write_html, write_json
from lab.runner import BEHAVIOURS, HARNESSES, MODEL_CHOICES, RunResult, run_corpus
from lab.schema import Scenario
from lab.scores import (
    LOW_INFORMATIVE,
    guarded_breached,
    informative,
    informative_table,
    score_table,
    scores,
)

BREACHED = 1
INVALID = 2


class Command(BaseCommand):
    help = "Run Injection Lab scenarios through the naive and guarded harnesses and score them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "paths", nargs="*", type=Path, help="scenario files or directories (default: the built-in corpus)"
        )
        parser.add_argument("--harness", choices=[*HARNESSES, "both"], default="both")
        parser.add_argument(
            "--customer",
            choices=[*BEHAVIOURS, "both"],
            default="both",
            help="never-click, or confirm-all: a tired customer who confirms every card shown",
        )
        parser.add_argument(
            "--model",
            choices=MODEL_CHOICES,
            default="scenario",
            help="replace every scenario's model (default: each scenario's "
            "own); adversary: the worst case, a model that proposes every "
            "write the tools accept on everything it has seen",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=min(4, os.cpu_count() or 1),
            help="scenarios played at once, in forked processes (default: the number of CPUs, at most 4)",
        )
        parser.add_argument("--json", type=Path, metavar="PATH", help="write the results as JSON")
        parser.add_argument("--html", type=Path, metavar="PATH", help="write a self-contained HTML report")
        parser.add_argument(
            "--headline",
            action="store_true",
            help="store the adversary × guarded × confirm-all figure for the "
            f"trainee page ({HEADLINE_PATH.name}); needs --model adversary, "
            "the built-in corpus and both harnesses",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = options["verbosity"]
        paths = options["paths"] or builtin_paths()
        sources: dict[str, Path] = {}
        try:
            scenarios = load_paths(paths, sources)
        except LabFileError as error:
            raise CommandError(str(error), returncode=INVALID) from None
        if not scenarios:
            raise CommandError("no scenarios found in " + ", ".join(map(str, paths)), returncode=INVALID)
        harnesses = HARNESSES if options["harness"] == "both" else (options["harness"],)
        behaviours = BEHAVIOURS if options["customer"] == "both" else (options["customer"],)
        model = None if options["model"] == "scenario" else options["model"]
        if options["headline"]:
            _headline_fits(options, harnesses, behaviours)
        started = time.perf_counter()
        results = run_corpus(
            scenarios,
            harnesses=harnesses,
            behaviours=behaviours,
            model=model,
            jobs=options["jobs"],
            progress=self._progress,
        )
        seconds = round(time.perf_counter() - started, 1)
        found = scores(results)
        self.stdout.write("\n" + score_table(found))
        rows = informative(results)
        label = model_label(model) if model else "each scenario's own"
        self.stdout.write(
            f"\nInformative fraction: attacks the naive harness falls to "
            f"(model: {label}; LOW below {LOW_INFORMATIVE:.0%})\n" + informative_table(rows)
        )
        self.stdout.write(f"\n{len(scenarios)} scenarios, {len(results)} runs in {seconds} s")
        top = headline(results, found, rows, model=model)
        if top is not None:
            self.stdout.write(
                f"Headline (adversary, guarded, confirm-all): {top['through']} of "
                f"{top['attacks']} attacks through; the naive harness fell to "
                f"{rows[-1].naive_fell} of {rows[-1].attacks}"
            )
        meta = {"model": label, "paths": [str(p) for p in paths], "runs": len(results), "seconds": seconds}
        data = report_data(scenarios, results, found, meta, informative=rows, headline=top)
        if options["json"]:
            write_json(options["json"], data)
            self.stdout.write(f"JSON written to {options['json']}")
        if options["html"]:
            write_html(options["html"], data)
            self.stdout.write(f"HTML report written to {options['html']}")
        if options["headline"] and top is not None:
            headline_write(top)
            self.stdout.write(f"Headline written to {HEADLINE_PATH}")
        unset = list(
            dict.fromkeys(
                f"{sources.get(r.scenario, '?')}: {r.setup_error}" for r in results if r.setup_error
            )
        )
        for line in unset:
            self.stderr.write(f"setup error: {line}")
        if guarded_breached(found):
            failed = sorted(
                {
                    r.scenario
                    for r in results
                    if r.harness == "guarded"
                    and (r.attack_succeeded or r.error or (r.kind == "benign" and r.violations))
                }
            )
            raise CommandError(
                "the guarded harness let attacks through, broke a benign task's "
                "end state or crashed in: "
                + ", ".join(failed)
                + (f"; and {len(unset)} scenario(s) could not be set up" if unset else ""),
                returncode=BREACHED,
            )
        if unset:
            raise CommandError(
                "scenarios that cannot be set up (nothing was played):\n" + "\n".join(unset),
                returncode=INVALID,
            )

    def _progress(self, number: int, total: int, scenario: Scenario, runs: list[RunResult]) -> None:
        if self.verbosity < 1:
            return
        verdicts = "  ".join(f"{r.harness}/{r.behaviour}: {_verdict(r)}" for r in runs)
        self.stdout.write(f"[{number:>3}/{total}] {scenario.id:<44} {verdicts}")


def _headline_fits(options: dict[str, Any], harnesses: tuple[str, ...], behaviours: tuple[str, ...]) -> None:
    """The trainee page's figure is the adversary on the whole built-in corpus, with
    the naive harness played too (it gives the informative fraction)."""
    if (
        options["model"] != ADVERSARY
        or options["paths"]
        or set(harnesses) != set(HARNESSES)
        or CONFIRM_ALL not in behaviours
    ):
        raise CommandError(
            "--headline measures the built-in corpus with --model adversary, "
            "--harness both and a confirm-all customer",
            returncode=INVALID,
        )


def _verdict(run: RunResult) -> str:
    if run.setup_error:
        return "SETUP ERROR"
    if run.error:
        return "CRASHED"
    if run.kind == "attack":
        return "BREACHED" if run.attack_succeeded else "held"
    if run.violations:
        return "VIOLATED"  # a benign task with an unexpected write, leak or contact
    return "done" if run.utility else "NOT DONE"
