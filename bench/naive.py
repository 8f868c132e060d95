"""The naive turn of benchmark (c): the Injection Lab's ``NaiveHarness``, its
statement with the fields the chat's statement table shows. No side effects on
import, so a test can play the turn the bench workers play (bench/asgi.py)."""

from __future__ import annotations

from typing import Any

from accounts.models import Account
from accounts.selectors import statement_for_month
from bankbot.agent import TurnConfig
from tools.catalog.rows import transaction_row
from tools.naive import NaiveGetStatementArgs, NaiveHarness


class ChatNaiveHarness(NaiveHarness):
    """The lab's naive harness, its statement with the fields the chat's statement
    table shows (``count``, ``has_more``, ``currency``: the lab never renders it, and
    without them the chat's fragment fails). The same read, nothing checked."""

    def _run(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name != "get_statement":
            return super()._run(name, args)
        parsed = NaiveGetStatementArgs.model_validate(args)
        account = (
            Account.objects.get(number=parsed.account_id)
            if parsed.account_id
            else self.customer.accounts.first()
        )
        statement = statement_for_month(customer=account.customer, month=parsed.month)
        return {
            "account": account.number,
            "month": str(statement.month),
            "currency": "KZT",
            "transactions": [transaction_row(t) for t in statement.transactions],
            "count": statement.count,
            "total_kzt": f"{statement.total:.2f}",
            "has_more": statement.has_more,
        }


def naive_harness(ctx: Any, sources: Any) -> NaiveHarness:
    return ChatNaiveHarness(ctx.customer, ctx.conversation)


# What a naive app would run instead of the chat's turn: no output check, and a click
# played through the model like any message (the chat answers a click itself).
NAIVE_TURN = TurnConfig(harness=naive_harness, check_output=False, answer_clicks=False)
