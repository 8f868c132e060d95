"""Search and filters for the scenario list: plain GET parameters, so they work
without JavaScript and a filtered list is a link a teacher can hand out.

``q`` searches the title, the id, the notes, the technique in words and the
attacker's text; ``goal``, ``technique``, ``vector`` and ``outcome`` narrow by the
stored measurement (lab/catalogue.py) and the scenario's own fields. An unknown value
is ignored rather than refused: a stale link still shows the list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lab.schema import TECHNIQUES, VECTORS, Scenario
from lab.words import GOAL_WORDS, OUTCOME_WORDS, technique_words, vector_words

FIELDS = ("q", "goal", "technique", "vector", "outcome")


@dataclass(frozen=True)
class Filters:
    q: str = ""
    goal: str = ""
    technique: str = ""
    vector: str = ""
    outcome: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Filters:
        def pick(name: str, allowed: tuple[str, ...] | Mapping[str, Any]) -> str:
            value = str(query.get(name, "")).strip()
            return value if value in allowed else ""

        return cls(
            q=str(query.get("q", "")).strip()[:200],
            goal=pick("goal", GOAL_WORDS),
            technique=pick("technique", TECHNIQUES),
            vector=pick("vector", VECTORS),
            outcome=pick("outcome", OUTCOME_WORDS),
        )

    @property
    def active(self) -> bool:
        return any((self.q, self.goal, self.technique, self.vector, self.outcome))


def _haystack(scenario: Scenario) -> str:
    texts = [scenario.id, scenario.title, scenario.notes, scenario.technique or "", scenario.vector or ""]
    texts += [technique_words(scenario.technique), vector_words(scenario.vector)]
    for customer in scenario.setup.customers:
        texts += [card.brand for card in customer.cards]
        texts += [f"{t.merchant} {t.description}" for t in customer.transactions]
    texts += [e.message for e in scenario.setup.tool_errors]
    texts += [getattr(step, "say", "") for step in scenario.steps]
    return " ".join(texts).casefold()


def matching(scenarios: list[Scenario], filters: Filters, measured: Mapping[str, Any]) -> list[Scenario]:
    """The attacks that pass every filter given (``measured``: catalogue rows by id)."""
    words = filters.q.casefold().split()
    found = []
    for scenario in scenarios:
        row = measured.get(scenario.id) or {}
        if filters.technique and scenario.technique != filters.technique:
            continue
        if filters.vector and scenario.vector != filters.vector:
            continue
        if filters.goal and filters.goal not in row.get("goals", []):
            continue
        if filters.outcome and row.get("outcome") != filters.outcome:
            continue
        if words:
            haystack = _haystack(scenario)
            if not all(word in haystack for word in words):
                continue
        found.append(scenario)
    return found
