"""The recall table as text: counts per language and form for the terminal, each
non-exact case with what happened (what engineers iterate with), and the rows
docs/guarantees.md states, written and read back the same way."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tests.recall.cases import LANGUAGES, NOT_A_REQUEST, TOOLS, Action, forms
from tests.recall.measure import OUTCOMES, WAYS, Result, Verdict

WAY_TITLES = {"mandate": "mandate (every write through policy)", "end_to_end": "end to end (offline model)"}
OUTCOME_TITLES = {"exact": "exact", "one_click": "one click", "nothing": "nothing", "wrong": "wrong"}
VERBS = {tool: verb for verb, tool in TOOLS.items()}
DOC_HEADING = "**Recall on requests written apart from the grammar**"
UNGRANTABLE_FORMS = ("typo", "ambiguous")


def tally(results: Iterable[Result], way: str) -> Counter[str]:
    return Counter(r.way(way).outcome for r in results)


def _requests(results: Iterable[Result]) -> list[Result]:
    return [r for r in results if r.case.form != NOT_A_REQUEST]


def _refusals(results: Iterable[Result]) -> list[Result]:
    return [r for r in results if r.case.form == NOT_A_REQUEST]


def _cell(count: int, total: int) -> str:
    share = 100 * count / total if total else 0.0
    return f"{count} ({share:.1f} %)"


# --- the terminal's table ------------------------------------------------------------------


def table(results: list[Result], seconds: float | None = None) -> str:
    """Per language and form, both ways: the count and share of each outcome."""
    lines = [
        f"{'':<28}" + "".join(f" │ {WAY_TITLES[w]:<40}" for w in WAYS),
        f"{'':<24}{'n':>4}"
        + "".join(" │ " + "".join(f"{OUTCOME_TITLES[o]:>10}" for o in OUTCOMES) for _ in WAYS),
    ]
    for language in LANGUAGES:
        own = [r for r in results if r.case.language == language]
        lines.append(language.upper())
        for form in forms():
            lines.append(_row(f"  {form}", [r for r in own if r.case.form == form]))
        lines.append(_row(f"  all {language.upper()} requests", _requests(own)))
    lines += [
        "ALL",
        _row("  all requests", _requests(results)),
        _row(f"  {NOT_A_REQUEST}", _refusals(results)),
        "",
        f'{NOT_A_REQUEST}: "exact" is nothing granted, as asked.',
        _reasons_line(results),
        _refused_line(results),
        _tables_line(results),
    ]
    if seconds is not None:
        lines.append(f"{len(results)} cases, both ways, in {seconds:.1f} s.")
    return "\n".join(lines)


def _row(title: str, results: list[Result]) -> str:
    cells = []
    for way in WAYS:
        found = tally(results, way)
        cells.append("".join(f"{found[o]:>5}{_share(found[o], len(results)):>5}" for o in OUTCOMES))
    return f"{title:<24}{len(results):>4}" + "".join(f" │ {c}" for c in cells)


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "-"


def _reasons_line(results: list[Result]) -> str:
    return "reason as its author named it, among exact cases that name one: " + reasons(results)


def reasons(results: list[Result]) -> str:
    """``mandate 20/23, end to end 7/9``: exact cases granted the reason their author named."""
    parts = []
    for way in WAYS:
        named = [r.way(way).reason_as_asked for r in results if r.way(way).reason_as_asked is not None]
        parts.append(f"{way.replace('_', ' ')} {sum(named)}/{len(named)}")
    return ", ".join(parts)


def _refused_line(results: list[Result]) -> str:
    counts = [f"{way.replace('_', ' ')} {refused_exact(results, way)}" for way in WAYS]
    return (
        "exact, understood exactly and refused by the bank's rule with its reason "
        f"(a dispute past its window): {', '.join(counts)}"
    )


def refused_exact(results: Iterable[Result], way: str) -> int:
    return sum(1 for r in results if r.way(way).outcome == "exact" and r.way(way).seen.refused)


def _tables_line(results: list[Result]) -> str:
    in_table = [
        r
        for r in results
        if r.end_to_end.outcome == "nothing"
        and all(b in r.end_to_end.seen.tables for b in _missing(r, r.end_to_end))
    ]
    return (
        "end to end, nothing, but every missing target was on a read's table with its "
        f"button (the customer searches the table): {len(in_table)}"
    )


def _missing(result: Result, verdict: Verdict) -> set[tuple[str, str]]:
    got = {a.key for a in verdict.seen.granted}
    return {(a.tool, a.target) for a in result.case.expect if a.key not in got}


# --- what engineers iterate with -----------------------------------------------------------


def failures(results: list[Result], way: str | None = None, outcome: str | None = None) -> str:
    """Every case that is not exact (either way, or the one way asked), with what each
    way gave it; then the exact cases granted with another reason than the author's."""
    ways = (way,) if way else WAYS
    shown = [
        r
        for r in results
        if any(r.way(w).outcome != "exact" and (outcome is None or r.way(w).outcome == outcome) for w in ways)
    ]
    blocks = [_failure(r) for r in shown]
    other_reason = [r for r in results if any(r.way(w).reason_as_asked is False for w in ways)]
    if other_reason and outcome is None:
        blocks.append("Exact, but granted with another reason than the author named:")
        blocks += [_failure(r) for r in other_reason]
    blocks.append(f"{len(shown)} cases not exact" + (f" ({way})" if way else " (either way)"))
    return "\n\n".join(blocks)


def _failure(result: Result) -> str:
    case = result.case
    expected = ", ".join(map(str, case.expect)) or "nothing"
    lines = [f"{case.name} [{case.form}] {case.text}", f"    expected: {expected}"]
    for way in WAYS:
        verdict = result.way(way)
        given = ", ".join(map(str, sorted(verdict.seen.granted, key=Action.__str__))) or "—"
        buttons = ", ".join(f"{VERBS[t]} {x}" for t, x in sorted(verdict.seen.buttons)) or "—"
        reason = " (another reason)" if verdict.reason_as_asked is False else ""
        lines.append(f"    {way:<10} {verdict.outcome}{reason}: got {given}; buttons {buttons}")
        lines.append(f"{'':15}{verdict.seen.notes}")
    return "\n".join(lines)


# --- the doc's rows --------------------------------------------------------------------------


def doc_rows(results: list[Result]) -> list[list[str]]:
    """The rows docs/guarantees.md states: per language and overall, requests and the
    messages that ask for nothing, each way."""
    groups = [
        ("EN requests", _requests(r for r in results if r.case.language == "en")),
        ("RU requests", _requests(r for r in results if r.case.language == "ru")),
        ("all requests", _requests(results)),
        # A misspelling only opens buttons and a tie is buttons, by rule (G7): the
        # requests a grant may answer are the rest.
        (
            "requests neither misspelt nor tied",
            [r for r in _requests(results) if r.case.form not in UNGRANTABLE_FORMS],
        ),
        ("not a request (EN + RU)", _refusals(results)),
    ]
    rows = []
    for way in WAYS:
        for title, group in groups:
            found = tally(group, way)
            rows.append(
                [
                    way.replace("_", " "),
                    title,
                    str(len(group)),
                    *(_cell(found[o], len(group)) for o in OUTCOMES),
                ]
            )
    return rows


def doc_table(results: list[Result]) -> str:
    head = ["way", "messages", "n", *(OUTCOME_TITLES[o] for o in OUTCOMES)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in doc_rows(results)]
    return "\n".join(lines)


def doc_rows_stated(doc: str) -> list[list[str]]:
    """The rows the doc's recall table states, read back from its Markdown."""
    _, found, rest = doc.partition(DOC_HEADING)
    if not found:
        return []
    table_lines = []
    for line in rest.splitlines():
        if line.startswith("|"):
            table_lines.append(line)
        elif table_lines:
            break
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table_lines]
    return [row for row in rows[2:] if not all(re.fullmatch(r"-+", c) for c in row)]


REASONS_LINE = re.compile(
    r"(Reason as its author named it, among exact cases that name one: )"
    r"[^.]*\."
)


def doc_updated(doc: str, results: list[Result]) -> str:
    """The doc with the recall table and reasons line replaced by the measured ones
    (``python -m tests.recall --write-doc``): the test then reads them back."""
    before, found, rest = doc.partition(DOC_HEADING)
    if not found:
        raise ValueError(f"the doc has no {DOC_HEADING} section")
    lines = rest.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    rest = "\n".join([*lines[:start], doc_table(results), *lines[end:]])
    rest = REASONS_LINE.sub(lambda m: m[1] + reasons(results) + ".", rest, count=1)
    return before + found + rest
