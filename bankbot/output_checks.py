"""Checks on the model's final text before the customer sees it (G10).

Every amount it states must appear in this conversation's tool results or in
the customer's own words; links and images to other origins are removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

# "15000.00", "15 000", "15,000.50", "2500,50 ₸", "99.00": a number with a
# decimal part, or of three or more digits. Card digits, dates, references and
# bare years are not amounts; they are removed or skipped first.
_AMOUNT = re.compile(r"(?<![\w./-])(\d{1,3}(?:[ ,\u00a0]\d{3})+|\d+)(?:[.,](\d{1,2}))?(?![\w/-])")
_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b")
_REFERENCE = re.compile(r"\b[TDP]-[0-9a-f]+\b", re.IGNORECASE)
_CARD = re.compile(r"(?:••••|\*{4}|ending(?: in)?|card|карт\w*)\s*(\d{4})\b", re.IGNORECASE)
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\((?:https?:)?//[^)]*\)")
_BARE_URL = re.compile(r"(?:https?:)?//[^\s)\]]+", re.IGNORECASE)
_HTML_TAG = re.compile(r"<\s*(img|a|iframe|script)\b[^>]*>", re.IGNORECASE)


@dataclass
class CheckedAnswer:
    text: str
    problems: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return bool(self.problems)


def amounts_in(text: str) -> set[Decimal]:
    text = _REFERENCE.sub(" ", _DATE.sub(" ", text or ""))
    text = _CARD.sub(" ", text)
    found = set()
    for whole, cents in _AMOUNT.findall(text):
        digits = re.sub(r"[ ,\u00a0]", "", whole)
        if not cents and (len(digits) < 3 or (len(digits) == 4 and 1990 <= int(digits) <= 2100)):
            continue
        try:
            found.add(Decimal(f"{digits}.{cents or '0'}").quantize(Decimal("0.01")))
        except InvalidOperation:
            continue
    return found


def check_answer(text: str, *, known_text: Iterable[str]) -> CheckedAnswer:
    """``known_text``: the conversation's tool results and the customer's own messages,
    read only as far as needed: once every amount in the answer is found, the rest is
    not parsed (give the newest first), and an answer without amounts reads none."""
    return _check(text, (amounts_in(item) for item in known_text))


def _check(text: str, known_amounts: Iterable[set[Decimal]]) -> CheckedAnswer:
    problems = []
    cleaned = _MARKDOWN_IMAGE.sub("[image removed]", text or "")
    cleaned = _MARKDOWN_LINK.sub(r"\1 [link removed]", cleaned)
    cleaned = _HTML_TAG.sub("[removed]", cleaned)
    cleaned = _BARE_URL.sub("[link removed]", cleaned)
    if cleaned != (text or ""):
        problems.append("The answer linked to another website; the link was removed.")
    unfound = amounts_in(cleaned)
    for amounts in known_amounts if unfound else ():
        unfound -= amounts
        if not unfound:
            break
    unverified = sorted(unfound)
    if unverified:
        shown = ", ".join(f"{a:.2f}" for a in unverified)
        problems.append(f"The assistant stated amounts that do not match your records ({shown}); "
                        "please rely on the statement table instead.")
    return CheckedAnswer(text=cleaned, problems=problems)


# Where streamed text may be cut: whitespace that does not follow a digit or a
# separator, so an amount ("15 000.50", "2 500,50") is never shown in two pieces.
_CUT = re.compile(r"(?<![\d.,])\s+")
# What a piece of text needs to contain for the check to see something new in it:
# a digit (an amount), or the makings of a link, an image or a tag. Plain words
# cannot change the verdict on text already passed, so they are not re-checked.
_CHECKABLE = re.compile(r"[\d/<>()\[\]!]")


class StreamGate:
    """Streamed text reaches the customer a few words at a time, and only what the
    output check passes (G10): an amount the records do not hold, or a link to
    another site, is never shown while the answer streams. Text is released up to
    its last safe cut, and everything released so far is checked as a whole; the
    first release the check would flag or change closes the gate, and the rest
    waits for the checked final answer (which replaces the streamed text anyway).

    One gate per turn, since the browser joins every model call's text in one
    bubble: text held at the end of one call waits for the next call's, and only
    :meth:`finish`, at the end of the turn, releases a last piece without a cut.
    ``known_text`` is read lazily, once, newest first (as ``check_answer`` reads
    it), and only if the text states an amount; :meth:`know` replaces it when tool
    results have been added.
    """

    def __init__(self, known_text: Iterable[str]) -> None:
        self.know(known_text)
        self._shown = ""
        self._pending = ""
        self.closed = False

    def know(self, known_text: Iterable[str]) -> None:
        self._known = _Replay(amounts_in(item) for item in known_text)

    def feed(self, delta: str) -> str:
        """Add streamed text; return what may be shown now ("" for nothing yet)."""
        if self.closed:
            return ""
        self._pending += delta
        cuts = [m.end() for m in _CUT.finditer(self._pending)]
        if not cuts:
            return ""
        ready, self._pending = self._pending[:cuts[-1]], self._pending[cuts[-1]:]
        return self._release(ready)

    def finish(self) -> str:
        """The turn's answer is complete: the rest, if the whole passes the check."""
        rest, self._pending = self._pending, ""
        return self._release(rest) if rest else ""

    def _release(self, ready: str) -> str:
        if self.closed:
            return ""
        if _CHECKABLE.search(ready) and _check(self._shown + ready, self._known).flagged:
            self.closed = True
            return ""
        self._shown += ready
        return ready


_END = object()


class _Replay:
    """An iterable read at most once from its source and replayed after that, so
    every check sees the same known amounts without reading or parsing them twice."""

    def __init__(self, source: Iterable[set[Decimal]]) -> None:
        self._source = iter(source)
        self._seen: list[set[Decimal]] = []

    def __iter__(self) -> Iterator[set[Decimal]]:
        index = 0
        while True:
            if index == len(self._seen):
                item = next(self._source, _END)
                if item is _END:
                    return
                self._seen.append(item)
            yield self._seen[index]
            index += 1
