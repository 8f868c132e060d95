"""A dispute asked by reference looks up that one row, with the catalog's own finder
(customer issue, point 6): the answer shows the row named, not ten unrelated ones."""

from __future__ import annotations

import pytest

from llm import ModelConfig, make_client
from tests.llm.offline_chat import Chat, tool_result, transaction
from tools.catalog import CATALOG

BY_REFERENCE = {"merchant": None, "amount": None, "month": None, "reference": "T-10010"}


@pytest.fixture
def catalog_chat() -> Chat:
    """The offline model offered the tools as the chat offers them."""
    return Chat(
        make_client(ModelConfig(model="offline")), [spec.openai_schema() for spec in CATALOG.values()]
    )


@pytest.mark.parametrize("said", ["dispute T-10010", "оспорь T-10010", "dispute t-10010 please"])
def test_a_dispute_by_reference_looks_up_that_one_row(catalog_chat: Chat, said: str) -> None:
    assert catalog_chat.calls(catalog_chat.turn(said)) == [("find_transactions", BY_REFERENCE)]


def test_the_row_found_is_the_one_proposed(catalog_chat: Chat) -> None:
    found = tool_result(
        tool="find_transactions",
        data={"transactions": [transaction("T-10010", "2300.00", merchant="Coffee Boom")], "count": 1},
    )
    calls = catalog_chat.calls(
        catalog_chat.turn("dispute T-10010", ("find_transactions", BY_REFERENCE, found))
    )
    assert [(name, args["transaction"], args["amount"]) for name, args in calls] == [
        ("raise_dispute", "T-10010", "2300.00")
    ]


def test_a_reference_that_is_none_of_the_customers_is_said_not_guessed(catalog_chat: Chat) -> None:
    nothing = tool_result(tool="find_transactions", data={"transactions": [], "count": 0})
    message = catalog_chat.reply(
        catalog_chat.turn("dispute T-10010", ("find_transactions", BY_REFERENCE, nothing))
    )
    assert not message.tool_calls
    assert "T-10010" in (message.content or "")


def test_a_dispute_described_still_looks_up_by_its_words(catalog_chat: Chat) -> None:
    calls = catalog_chat.calls(catalog_chat.turn("dispute the Magnum charge"))
    assert calls == [
        ("find_transactions", {"merchant": "Magnum", "amount": None, "month": None, "reference": None})
    ]
