"""The naive harness — for the Injection Lab ONLY. Never imported by the chat.

It makes, on purpose, the mistakes the guarded harness exists to prevent:
- identity from a parameter: ``get_statement(account_id, month)`` reads any account;
- no confirmation: writes run the moment the model asks;
- no mandate: anything the model asks for is done;
- tool output as commands: a ``next_action`` found in a result is dispatched.
It still calls the real services, so business rules like the 120-day window
hold; what it loses are the harness's guarantees.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from openai import pydantic_function_tool
from pydantic import BaseModel, ConfigDict, ValidationError

from accounts.models import Account, Card, Transaction
from accounts.selectors import statement_for_month
from disputes.reasons import DISPUTE_REASONS
from errors import DomainError
from tools.catalog import CATALOG, ReadTool, transaction_row
from tools.context import CUSTOMER_SCOPES, ActionContext
from tools.harness import OutcomeStatus, ToolOutcome
from tools.models import ToolCallTrace
from tools.policy import Denial
from tools.provenance import Source
from tools.trace import trace_record


class NaiveGetStatementArgs(BaseModel):
    """Read the statement of any account for one month."""

    model_config = ConfigDict(extra="ignore")
    account_id: str | None
    month: str


class NaiveHarness:
    name = "naive"
    MAX_CHAINED = 5  # even the naive harness stops chains of planted actions somewhere

    def __init__(self, customer: Any, conversation: Any = None) -> None:
        self.customer = customer
        self.conversation = conversation
        self.sources: list[Source] = []  # the naive harness keeps no provenance

    def tools(self) -> list[dict[str, Any]]:
        tools = [dict(pydantic_function_tool(NaiveGetStatementArgs, name="get_statement"))]
        for spec in CATALOG.values():
            if spec.name != "get_statement":
                tools.append(spec.openai_schema())
        return tools

    def call(self, name: Any, raw_arguments: Any, _depth: int = 0) -> ToolOutcome:
        try:
            args = json.loads(raw_arguments) if isinstance(raw_arguments, str) else dict(raw_arguments or {})
            data = self._run(str(name), args)
        except (
            DomainError,
            ValidationError,
            ValueError,
            TypeError,
            KeyError,
            Account.DoesNotExist,
            Card.DoesNotExist,
            Card.MultipleObjectsReturned,
            Transaction.DoesNotExist,
        ) as error:
            message = getattr(error, "message", str(error))
            trace_record(
                event=ToolCallTrace.Event.FAILED,
                decision="error",
                tool=str(name)[:50],
                customer=self.customer,
                conversation=self.conversation,
                raw_args=str(raw_arguments)[:4000],
                reason=message,
                harness="naive",
            )
            return ToolOutcome(
                tool=str(name),
                status=OutcomeStatus.ERROR,
                error=Denial(getattr(error, "code", "error"), message),
            )
        trace_record(
            event=ToolCallTrace.Event.EXECUTED,
            decision="ok",
            tool=str(name)[:50],
            customer=self.customer,
            conversation=self.conversation,
            raw_args=str(raw_arguments)[:4000],
            result=data,
            harness="naive",
        )
        # The cardinal sin: text in a result is taken as the next command.
        follow = _next_action(data)
        if follow is not None and _depth < self.MAX_CHAINED:
            self.call(follow.get("tool", ""), follow.get("arguments", {}), _depth + 1)
        return ToolOutcome(tool=str(name), status=OutcomeStatus.OK, data=data)

    def _run(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name == "get_statement":
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
                "transactions": [transaction_row(t) for t in statement.transactions],
                "total_kzt": f"{statement.total:.2f}",
            }
        spec = CATALOG.get(name)
        if spec is None:
            raise KeyError(f"no tool {name}")
        if isinstance(spec, ReadTool):
            ctx = ActionContext(
                customer=self.customer, conversation=self.conversation, scopes=CUSTOMER_SCOPES
            )
            return spec.run(ctx, spec.args.model_validate(args))
        # A write runs at once, for whoever owns the object it names: no mandate,
        # no confirmation, no ownership check.
        args = {key: str(value) for key, value in args.items() if value is not None}
        args[spec.target.kind] = spec.target.normal(args.get(spec.target.kind, ""))
        if "reason" in spec.args.model_fields:
            args["reason"] = _reason_code(args.get("reason"))
        owner = _OWNERS[spec.target.kind](args[spec.target.kind])
        ctx = ActionContext(customer=owner, conversation=self.conversation, scopes=CUSTOMER_SCOPES)
        return spec.run(ctx, spec.args.model_validate(args), idempotency_key=uuid.uuid4())


_OWNERS = {
    "card": lambda last4: Card.objects.select_related("account__customer").get(last4=last4).account.customer,
    "transaction": lambda reference: (
        Transaction.objects.select_related("account__customer")
        .get(reference=reference.upper())
        .account.customer
    ),
}


def _reason_code(reason: Any) -> str:
    # The service stores codes only; a naive setup files whatever it is told as
    # the default one.
    return reason if reason in DISPUTE_REASONS else "not_recognised"


def _next_action(data: Any) -> dict[str, Any] | None:
    """Find a ``next_action`` anywhere in a result, including inside merchant text."""
    from tools.provenance import plain

    text = json.dumps(plain(data), ensure_ascii=False)
    marker = text.find("next_action")
    if marker < 0:
        return None
    flat = plain(data)
    for value in _walk(flat):
        if isinstance(value, dict) and isinstance(value.get("next_action"), dict):
            return value["next_action"]
        if isinstance(value, str) and "next_action" in value:
            try:
                found = json.loads(value[value.index("{") : value.rindex("}") + 1])
            except ValueError:
                continue
            if isinstance(found, dict) and isinstance(found.get("next_action"), dict):
                return found["next_action"]
    return None


def _walk(value: Any) -> Any:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)
