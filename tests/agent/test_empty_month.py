""" "Show my statement" on the 1st: this month is empty, so the assistant says so and
shows the latest month that has transactions, in the customer's language."""

from __future__ import annotations

import pytest

FIRST_OF_DECEMBER = "2026-12-01T00:30+05:00"  # Alice's newest payment is 5 days earlier


@pytest.fixture(autouse=True)
def _first_of_month(time_machine):
    time_machine.move_to(FIRST_OF_DECEMBER, tick=False)


def statements(events) -> list[dict]:
    return [e.data for e in events if e.kind == "tool" and e.data["tool"] == "get_statement"]


@pytest.mark.parametrize(
    ("question", "empty", "shown"),
    [
        (
            "show my statement",
            "no transactions in your statement for December 2026",
            "Your statement for November 2026 has 2 transactions",
        ),
        ("покажи выписку", "За декабрь 2026 операций нет", "В выписке за ноябрь 2026 2 операции"),
    ],
)
def test_it_says_the_month_is_empty_and_shows_the_latest_month(
    alice_conversation, say, question, empty, shown
):
    reply, events = say(alice_conversation, question)

    months = [s["data"]["month"] for s in statements(events)]
    assert months == ["2026-12", "2026-11"]
    assert statements(events)[0]["data"]["latest_month_with_transactions"] == "2026-11"
    assert empty in reply.text and shown in reply.text


def test_a_month_the_customer_named_is_answered_as_asked(alice_conversation, say):
    reply, events = say(alice_conversation, "show my statement for 2026-12")

    assert [s["data"]["month"] for s in statements(events)] == ["2026-12"]
    assert "December 2026" in reply.text
