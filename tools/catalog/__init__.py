"""The tool catalog: one entry per tool, each carrying everything about it (G2).

The explicit list below is every tool the model may call, in the order it is
shown them. Each entry (a ``ReadTool`` or ``WriteTool``, tools/catalog/base.py) lives in the
module named after its tool; policy, the mandate, the chat and docs/tools.md
read the entries, so a new tool is a new module and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accounts.models import Customer
from tools.catalog import (
    block_card,
    get_balance,
    get_disputes,
    get_spending,
    raise_dispute,
    reads,
    unblock_card,
)
from tools.catalog.base import (
    ArgLabel,
    Catalog,
    Outcome,
    ReadTool,
    Sentences,
    Tool,
    ToolArgs,
    UiAction,
    WriteTool,
)
from tools.catalog.rows import CARD, TRANSACTION, Target, card_row, transaction_row

__all__ = [
    "CATALOG",
    "ArgLabel",
    "Catalog",
    "Outcome",
    "Sentences",
    "ToolArgs",
    "Tool",
    "ReadTool",
    "WriteTool",
    "UiAction",
    "Target",
    "CARD",
    "TRANSACTION",
    "card_row",
    "transaction_row",
    "candidate_rows",
    "openai_tools",
    "ui_actions_for",
]

CATALOG = Catalog(
    [
        reads.GET_STATEMENT,
        reads.LIST_CARDS,
        reads.FIND_TRANSACTIONS,
        get_balance.SPEC,
        get_spending.SPEC,
        get_disputes.SPEC,
        block_card.SPEC,
        unblock_card.SPEC,
        raise_dispute.SPEC,
    ]
)


def openai_tools() -> list[dict[str, Any]]:
    """The tool list sent to the model (the guarded harness's)."""
    return CATALOG.openai_tools()


def candidate_rows(
    customer: Customer, tool: str, candidates: tuple[str, ...], *, fit: str = ""
) -> dict[str, Any]:
    """The objects a denied write's candidates name, as rows the chat shows with
    their buttons, in the candidates' order (best first); ``fit`` says whether
    they fit every word ("several") or are only the "nearest" ({} when there are
    none)."""
    spec = CATALOG.get(tool)
    if not candidates or not isinstance(spec, WriteTool):
        return {}
    target = spec.target
    rank = {target.normal(name): index for index, name in enumerate(candidates)}
    rows = sorted(
        target.rows(customer, candidates),
        key=lambda row: rank.get(target.normal(str(row.get(target.key, ""))), len(rank)),
    )
    if not rows:
        return {}
    found: dict[str, Any] = {target.plural: rows}
    if fit:
        found["fit"] = fit
    return {"candidates": found}


def ui_actions_for(kind: str, row: Mapping[str, object], *, withheld: bool = False) -> list[WriteTool]:
    """The write tools whose button belongs on this row (a card, a transaction);
    ``withheld``: also those whose rules refuse this row already (it says why)."""
    return [
        spec
        for spec in CATALOG.writes()
        if spec.target.kind == kind and (spec.ui.offered(row) or (withheld and spec.ui.withheld(row)))
    ]
