"""The recall cases: requests written apart from the grammar (cases_en.yaml, cases_ru.yaml),
and the traps: messages written apart from it to make it act unasked (traps_*.yaml).

Each case is a customer's message, the form its author wrote it in (plain, polite,
typo, two requests, not a request…) and the exact actions it asks for, written as
``block 4242``, ``unblock 6006``, ``dispute T-5006`` (its full amount) or
``dispute T-5006 5000.00`` (a part), each optionally with `` reason=CODE``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
LANGUAGES = ("en", "ru")
NOT_A_REQUEST = "not_a_request"
TOOLS = {"block": "block_card", "unblock": "unblock_card", "dispute": "raise_dispute"}
FULL = "full"

_EXPECTED = re.compile(
    r"^(block|unblock) (\d{4})$"
    r"|^dispute (T-\d+)(?: (\d+\.\d{2}))?(?: reason=([a-z_]+))?$"
)


@dataclass(frozen=True, order=True)
class Action:
    """One write: its tool, its target, and for a dispute the amount ("full" or a
    part, "5000.00") and reason ("" where the case's author named none)."""

    tool: str
    target: str
    amount: str = ""
    reason: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        """What must match for the action to be exact: reasons are reported apart."""
        return (self.tool, self.target, self.amount)

    def __str__(self) -> str:
        verb = next(word for word, tool in TOOLS.items() if tool == self.tool)
        extra = "" if self.amount in ("", FULL) else f" {self.amount}"
        reason = f" reason={self.reason}" if self.reason else ""
        return f"{verb} {self.target}{extra}{reason}"


@dataclass(frozen=True)
class Case:
    language: str
    number: int  # its place in its file, from 1: how engineers name a case
    text: str
    form: str
    expect: tuple[Action, ...]
    file: str = "cases"  # "cases" (requests) or "traps" (messages that try to fool it)

    @property
    def name(self) -> str:
        prefix = "" if self.file == "cases" else f"{self.file}-"
        return f"{prefix}{self.language}#{self.number}"


def parse_action(written: str) -> Action:
    match = _EXPECTED.match(written.strip())
    if match is None:
        raise ValueError(f"not an expected action: {written!r}")
    verb, card, reference, part, reason = match.groups()
    if verb:
        return Action(TOOLS[verb], card)
    return Action("raise_dispute", reference, part or FULL, reason or "")


@cache
def load_cases(file: str = "cases") -> tuple[Case, ...]:
    """Both languages' cases of one set, English first, in file order: ``cases`` (requests
    as customers write them) or ``traps`` (messages written to make it act unasked)."""
    cases: list[Case] = []
    for language in LANGUAGES:
        rows = yaml.safe_load((HERE / f"{file}_{language}.yaml").read_text(encoding="utf-8"))
        for number, row in enumerate(rows, start=1):
            cases.append(
                Case(
                    language,
                    number,
                    str(row["text"]),
                    str(row["form"]),
                    tuple(parse_action(a) for a in row["expect"] or ()),
                    file,
                )
            )
    return tuple(cases)


def forms() -> list[str]:
    """The forms in the order the files first use them (not_a_request last)."""
    seen = dict.fromkeys(case.form for case in load_cases())
    return [f for f in seen if f != NOT_A_REQUEST] + [NOT_A_REQUEST]
