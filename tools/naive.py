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
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from openai import pydantic_function_tool
from pydantic import BaseModel, ConfigDict, ValidationError

from accounts.models import Account, Card, Customer, Transaction
from accounts.selectors import statement_for_month
from disputes.reasons import DISPUTE_REASONS
from errors import DomainError
from tools.catalog import CATALOG, ReadTool, transaction_row
from tools.context import ActionContext, ConversationLike
from tools.harness import OutcomeStatus, ToolOutcome
from tools.models import ToolCallTrace
from tools.policy import Denial
from tools.provenance import Source, plain
from tools.scopes import CUSTOMER_SCOPES
from tools.trace import trace_record


class NaiveGetStatementArgs(BaseModel):
    """Read the statement of any account for one month."""

    model_config = ConfigDict(extra="ignore")
    account_id: str | None
    month: str


class NaiveHarness:
    name = "naive"
    MAX_CHAINED = 5  # even the naive harness stops chains of planted actions somewhere

    def __init__(self, customer: Customer, conversation: ConversationLike) -> None:
        self.customer = customer
        self.conversation = conversation
        self.sources: list[Source] = []  # the naive harness keeps no provenance

    def tools(self) -> list[dict[str, Any]]:
        tools = [dict(pydantic_function_tool(NaiveGetStatementArgs, name="get_statement"))]
        for spec in CATALOG.values():
            if spec.name != "get_statement":
                tools.append(spec.openai_schema())
        return tools

    def call(self, name: object, raw_arguments: object, _depth: int = 0) -> ToolOutcome:
        try:
            data = self._run(str(name), _arguments(raw_arguments))
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

    def _run(self, name: str, args: dict[str, object]) -> dict[str, object]:
        if name == "get_statement":
            parsed = NaiveGetStatementArgs.model_validate(args)
            account = (
                Account.objects.get(number=parsed.account_id)
                if parsed.account_id
                else self.customer.accounts.first()
            )
            if account is None:
                raise Account.DoesNotExist("The customer has no account.")
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
        said = {key: str(value) for key, value in args.items() if value is not None}
        said[spec.target.kind] = spec.target.normal(said.get(spec.target.kind, ""))
        if "reason" in spec.args.model_fields:
            said["reason"] = _reason_code(said.get("reason"))
        owner = _OWNERS[spec.target.kind](said[spec.target.kind])
        ctx = ActionContext(customer=owner, conversation=self.conversation, scopes=CUSTOMER_SCOPES)
        return spec.run(ctx, spec.args.model_validate(said), idempotency_key=uuid.uuid4())


def _arguments(raw_arguments: object) -> dict[str, object]:
    """A call's arguments: the model's JSON text, or a chained call's own (ValueError
    or TypeError when they are not an object, reported like any failed call)."""
    found = json.loads(raw_arguments) if isinstance(raw_arguments, str) else raw_arguments or {}
    if not isinstance(found, Mapping):
        raise TypeError("the arguments are not an object")
    return dict(found)


def _card_owner(last4: str) -> Customer:
    return Card.objects.select_related("account__customer").get(last4=last4).account.customer


def _transaction_owner(reference: str) -> Customer:
    return (
        Transaction.objects.select_related("account__customer")
        .get(reference=reference.upper())
        .account.customer
    )


_OWNERS: dict[str, Callable[[str], Customer]] = {"card": _card_owner, "transaction": _transaction_owner}


def _reason_code(reason: str | None) -> str:
    # The service stores codes only; a naive setup files whatever it is told as
    # the default one.
    return reason if reason in DISPUTE_REASONS else "not_recognised"


def _next_action(data: object) -> dict[str, object] | None:
    """Find a ``next_action`` anywhere in a result, including inside merchant text."""
    text = json.dumps(plain(data), ensure_ascii=False)
    marker = text.find("next_action")
    if marker < 0:
        return None
    flat = plain(data)
    for value in _walk(flat):
        found = value
        if isinstance(value, str) and "next_action" in value:
            try:
                found = json.loads(value[value.index("{") : value.rindex("}") + 1])
            except ValueError:
                continue
        action = found.get("next_action") if isinstance(found, dict) else None
        if isinstance(action, dict):
            return action
    return None


def _walk(value: object) -> Iterator[object]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)
