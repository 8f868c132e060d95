"""get_balance: how much money is on the customer's own accounts, as the bank holds
it. A read: it runs at once, on a path that cannot write (G2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from accounts.selectors import accounts_for_customer
from tools.catalog.base import ReadTool, ToolArgs
from tools.scopes import READ_STATEMENTS

if TYPE_CHECKING:
    from tools.context import ActionContext

NAME = "get_balance"


class GetBalanceArgs(ToolArgs):
    """Read the balance of each of the customer's own accounts: the account's last four
    characters, its currency and the balance the bank holds."""


def get_balance(ctx: ActionContext, args: GetBalanceArgs) -> dict[str, Any]:
    accounts = accounts_for_customer(customer=ctx.customer)
    return {
        "accounts": [
            {
                "account": account.number[-4:],
                "currency": account.currency,
                "balance_kzt": f"{account.balance:.2f}",
            }
            for account in accounts
        ],
        "count": len(accounts),
    }


SPEC = ReadTool(
    name=NAME,
    args=GetBalanceArgs,
    scopes=frozenset({READ_STATEMENTS}),
    run=get_balance,
    autonomy="Runs at once, on a path that cannot write; the customer's own accounts only.",
)
