"""Helpers for the model-layer tests: the harness's tool schemas (built the way
the harness builds them, with openai.pydantic_function_tool), tool results in
the harness's shapes, and ``Chat``, which talks to a client through the real SDK.

A plain module rather than conftest.py so test files can import it; nothing
here needs Django.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import openai
import pydantic
from openai.types.chat import ChatCompletionMessage

TODAY_LINE = "Today is 2026-11-29."
SYSTEM = {"role": "system", "content": f"You are BankBot, a banking assistant. {TODAY_LINE}"}


class get_statement(pydantic.BaseModel):  # noqa: N801 - the class name is the tool name
    """The customer's statement for one month."""

    month: str = pydantic.Field(description="YYYY-MM")


class naive_get_statement(pydantic.BaseModel):  # noqa: N801
    """The lab's naive harness: a statement for any account id."""

    account_id: str
    month: str


class list_cards(pydantic.BaseModel):  # noqa: N801
    """The customer's cards."""


class block_card(pydantic.BaseModel):  # noqa: N801
    """Propose blocking one of the customer's cards."""

    card: str = pydantic.Field(description="last four digits")


class unblock_card(pydantic.BaseModel):  # noqa: N801
    """Propose unblocking one of the customer's cards that they blocked themselves."""

    card: str = pydantic.Field(description="last four digits")


class raise_dispute(pydantic.BaseModel):  # noqa: N801
    """Propose a dispute about one transaction."""

    transaction: str
    amount: str
    reason: str


class find_transactions(pydantic.BaseModel):  # noqa: N801
    """Find the customer's transactions by merchant, amount or month."""

    merchant: str | None
    amount: str | None
    month: str | None


GUARDED_TOOLS = [
    openai.pydantic_function_tool(model)
    for model in (get_statement, list_cards, block_card, raise_dispute, find_transactions, unblock_card)
]
NAIVE_TOOLS = [
    openai.pydantic_function_tool(naive_get_statement, name="get_statement"),
    *GUARDED_TOOLS[1:],
]


def tool_result(status: str = "ok", tool: str = "get_statement", **fields: Any) -> dict[str, Any]:
    return {"status": status, "tool": tool, **fields}


def transaction(
    reference: str = "T-10452",
    amount: str = "15000.00",
    merchant: str = "Magnum",
    description: str = "groceries",
    posted_at: str = "2026-10-03",
) -> dict[str, Any]:
    """A transaction as the read tools return it; merchant texts are external."""
    return {
        "reference": reference,
        "posted_at": posted_at,
        "amount_kzt": amount,
        "card": "4242",
        "merchant": {"external_text": merchant, "author": "merchant"},
        "description": {"external_text": description, "author": "merchant"},
    }


def statement(*rows: dict[str, Any], month: str = "2026-10", total: str = "15000.00") -> dict:
    data = {"month": month, "currency": "KZT", "transactions": list(rows), "count": len(rows)}
    return tool_result(data={**data, "total_kzt": total})


def turn(user_text: str, *steps: tuple[str, dict[str, Any], dict[str, Any]]) -> list:
    """Messages for a turn: the customer's words, then (tool, arguments, result)
    steps as the harness would append them."""
    messages: list[dict[str, Any]] = [SYSTEM, {"role": "user", "content": user_text}]
    for index, (name, arguments, result) in enumerate(steps):
        call_id = f"call_test_{index}"
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(arguments)},
                    }
                ],
            }
        )
        messages.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(result)})
    return messages


@dataclass
class Chat:
    """One client plus the tools it is offered; builds turns and asks for replies."""

    client: openai.OpenAI
    tools: list[Any]

    @staticmethod
    def turn(user_text: str, *steps: tuple[str, dict[str, Any], dict[str, Any]]) -> list:
        return turn(user_text, *steps)

    def reply(self, messages: list, *, stream: bool = False) -> ChatCompletionMessage:
        if not stream:
            completion = self.client.chat.completions.create(
                model="offline", messages=messages, tools=self.tools
            )
            return completion.choices[0].message
        with self.client.chat.completions.stream(
            model="offline", messages=messages, tools=self.tools
        ) as events:
            return events.get_final_completion().choices[0].message

    def calls(self, messages: list, *, stream: bool = False) -> list[tuple[str, dict[str, Any]]]:
        message = self.reply(messages, stream=stream)
        return [
            (call.function.name, json.loads(call.function.arguments)) for call in message.tool_calls or []
        ]
