"""The scopes a tool may need, and those a customer's session holds (G2)."""

from __future__ import annotations

READ_STATEMENTS = "statements:read"
READ_CARDS = "cards:read"
BLOCK_CARDS = "cards:block"
UNBLOCK_CARDS = "cards:unblock"
OPEN_DISPUTES = "disputes:open"
READ_DISPUTES = "disputes:read"

CUSTOMER_SCOPES = frozenset(
    {READ_STATEMENTS, READ_CARDS, BLOCK_CARDS, UNBLOCK_CARDS, OPEN_DISPUTES, READ_DISPUTES}
)
