"""The tool catalog under its former name: ``REGISTRY`` is ``tools.catalog.CATALOG``.

Kept for the modules that still import it (tools/proposals.py, bench/); new code
imports ``tools.catalog``.
"""

from __future__ import annotations

from tools.catalog import CATALOG, ToolArgs, ToolSpec, openai_tools
from tools.catalog.block_card import BlockCardArgs
from tools.catalog.raise_dispute import RaiseDisputeArgs
from tools.catalog.reads import (
    FindTransactionsArgs,
    GetStatementArgs,
    ListCardsArgs,
    get_statement,
    rows_traced,
)
from tools.catalog.unblock_card import UnblockCardArgs

REGISTRY = CATALOG

__all__ = ["REGISTRY", "ToolArgs", "ToolSpec", "openai_tools", "BlockCardArgs",
           "RaiseDisputeArgs", "UnblockCardArgs", "FindTransactionsArgs", "GetStatementArgs",
           "ListCardsArgs", "get_statement", "rows_traced"]
