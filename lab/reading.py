"""What a trainee reads in a run: the attacker's text found and marked inside the full
tool output, and everything the model read shown in full, hidden characters visible.

The planted text is the scenario's own data that no plain customer task has: a
description, merchant name, card label or tool error the benign scenarios never use
(and, for the customer-message vector, what the customer typed). It is searched for as
written and as JSON writes it, because a tool's output reaches the model as JSON.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone

from accounts.text import reveal_hidden
from lab.schema import SayStep, Scenario
from lab.templating import Renderer

SHORTEST = 4  # a shorter "planted" text would mark half the page


@dataclass(frozen=True)
class Segment:
    text: str
    planted: bool


def _setup_texts(scenario: Scenario) -> list[str]:
    texts = [e.message for e in scenario.setup.tool_errors]
    for customer in scenario.setup.customers:
        texts += [card.brand for card in customer.cards]
        for txn in customer.transactions:
            texts += [txn.merchant, txn.description]
    return [t for t in texts if t]


def _benign_texts(corpus: Iterable[Scenario]) -> frozenset[str]:
    return frozenset(t for s in corpus if s.kind == "benign" for t in _setup_texts(s))


def planted_texts(scenario: Scenario, corpus: Iterable[Scenario]) -> list[str]:
    """The attacker's texts of ``scenario``, rendered as the model reads them."""
    if scenario.kind != "attack":
        return []
    plain = _benign_texts(corpus)
    renderer = Renderer(scenario.setup, timezone.localtime())
    raw = [t for t in _setup_texts(scenario) if t not in plain]
    if scenario.vector == "customer_message":
        raw += [step.say for step in scenario.steps if isinstance(step, SayStep)]
    found: list[str] = []
    for text in raw:
        rendered = renderer.text(text)
        if len(rendered) >= SHORTEST and rendered not in found:
            found.append(rendered)
    return found


def needles(planted: Iterable[str]) -> list[str]:
    """Each planted text as it is shown: as written, and inside JSON."""
    found: set[str] = set()
    for text in planted:
        for form in (text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]):
            shown = reveal_hidden(form)
            if len(shown) >= SHORTEST:
                found.add(shown)
    return sorted(found, key=len, reverse=True)


def shown_in_full(text: str) -> str:
    """A tool's output laid out one field a line (it is JSON), hidden characters visible."""
    with contextlib.suppress(ValueError):
        text = json.dumps(json.loads(text), ensure_ascii=False, indent=1)
    return reveal_hidden(text)


def segments(text: str, marks: list[str]) -> list[Segment]:
    """``text`` cut into pieces, each planted text a piece of its own."""
    if not marks or not text:
        return [Segment(text, False)] if text else []
    pattern = re.compile("|".join(re.escape(m) for m in marks))
    pieces: list[Segment] = []
    at = 0
    for match in pattern.finditer(text):
        if match.start() > at:
            pieces.append(Segment(text[at : match.start()], False))
        pieces.append(Segment(match.group(), True))
        at = match.end()
    if at < len(text):
        pieces.append(Segment(text[at:], False))
    return pieces
