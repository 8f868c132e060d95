"""``DEBUG=1 .venv/bin/python -m tests.recall``: the recall table, measured on a
throwaway test database (never the project's own).

    python -m tests.recall                    the table, per language and form, both ways
    python -m tests.recall --failures         and every case that is not exact, with what happened
    python -m tests.recall --failures --way end_to_end --outcome nothing
    python -m tests.recall --language ru --form typo --failures   only those cases
    python -m tests.recall --set holdout      a held-out set instead (holdout, fresh, unseen, blind or sealed)
    python -m tests.recall --doc              the rows for docs/guarantees.md
    python -m tests.recall --write-doc        write them there (the test reads them back)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "guarantees.md"


def main(argv: list[str] | None = None) -> int:
    options = _options(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from tests.translations import compile_translations

    compile_translations()  # the Russian replies, as in a pytest run
    setup_test_environment()
    databases = setup_databases(verbosity=0, interactive=False, aliases={"default"}, serialized_aliases=set())
    try:
        _run(options)
    finally:
        teardown_databases(databases, verbosity=0)
    return 0


def _options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.recall",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--failures", action="store_true", help="list each non-exact case")
    parser.add_argument("--way", choices=["mandate", "end_to_end"], help="failures of one way")
    parser.add_argument(
        "--outcome", choices=["one_click", "nothing", "wrong"], help="failures with this outcome"
    )
    parser.add_argument("--language", choices=["en", "ru"], help="measure these cases only")
    parser.add_argument("--form", help="measure the cases of this form only")
    parser.add_argument(
        "--set",
        default="cases",
        choices=["cases", "holdout", "fresh", "unseen", "blind", "sealed"],
        help="which set: the recall table (cases) or the held-out set",
    )
    parser.add_argument("--doc", action="store_true", help="print the doc's Markdown table")
    parser.add_argument(
        "--write-doc", action="store_true", help="write the measured table into docs/guarantees.md"
    )
    return parser.parse_args(argv)


def _run(options: Any) -> None:
    from tests.recall.cases import load_cases
    from tests.recall.measure import measure
    from tests.recall.report import doc_table, doc_updated, failures, table

    cases = tuple(
        c
        for c in load_cases(options.set)
        if options.language in (None, c.language) and options.form in (None, c.form)
    )
    started = time.perf_counter()
    results = measure(cases, progress=_progress)
    seconds = time.perf_counter() - started
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if options.failures:
        print(failures(results, way=options.way, outcome=options.outcome), end="\n\n")
    print(table(results, seconds))
    if options.doc:
        print("\n" + doc_table(results))
    if options.write_doc:
        if options.set != "cases" or len(cases) != len(load_cases()):
            raise SystemExit("--write-doc needs every case of the table: no --language, --form or --set")
        DOC.write_text(doc_updated(DOC.read_text(encoding="utf-8"), results), encoding="utf-8")
        print(f"\nwrote the recall table into {DOC}")


def _progress(done: int, total: int, case: Any) -> None:
    # One line rewritten in place on a terminal; a line per hundred cases in a log.
    if sys.stderr.isatty():
        print(
            f"\rmeasuring {done}/{total} ({case.name}, {case.form})" + " " * 10,
            end="",
            file=sys.stderr,
            flush=True,
        )
    elif done % 100 == 0 or done == total:
        print(f"measured {done}/{total}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
