"""get_balance and get_spending: bank-computed figures over the customer's own rows only."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tools.context import action_context_for
from tools.harness import GuardedHarness


def harness_for(customer, conversation):
    return GuardedHarness(action_context_for(customer.user, conversation))


def days(first: int, last: int = 0) -> dict:
    today = timezone.localdate()
    return {
        "merchant": None,
        "category": None,
        "month": None,
        "date_from": (today - timedelta(days=first)).isoformat(),
        "date_to": (today - timedelta(days=last)).isoformat(),
    }


def test_it_reads_the_balance_of_the_customers_own_account(alice, alice_conversation):
    answer = harness_for(alice, alice_conversation).call("get_balance", {})
    assert answer.status == "ok"
    assert answer.data == {
        "accounts": [{"account": "0100", "currency": "KZT", "balance_kzt": "100000.00"}],
        "count": 1,
    }


def test_it_sums_a_category_over_days(bob, bob_conversation):
    answer = harness_for(bob, bob_conversation).call("get_spending", {**days(7), "category": "taxi"})
    assert answer.status == "ok"
    assert (answer.data["count"], answer.data["total_kzt"]) == (1, "7000.00")
    assert [row["reference"] for row in answer.data["transactions"]] == ["T-2001"]


def test_it_sums_a_merchant_and_leaves_out_other_rows(alice, alice_conversation):
    answer = harness_for(alice, alice_conversation).call("get_spending", {**days(60), "merchant": "magnum"})
    assert (answer.data["count"], answer.data["total_kzt"]) == (1, "15000.00")
    everything = harness_for(alice, alice_conversation).call("get_spending", days(60))
    assert (everything.data["count"], everything.data["total_kzt"]) == (3, "116500.50")


def test_it_never_counts_another_customers_rows(alice, alice_conversation, bob):
    answer = harness_for(alice, alice_conversation).call("get_spending", {**days(30), "category": "taxi"})
    assert (answer.data["count"], answer.data["total_kzt"]) == (0, "0.00")


def test_it_asks_for_one_period(alice, alice_conversation):
    answer = harness_for(alice, alice_conversation).call("get_spending", {**days(3), "month": "2026-11"})
    assert answer.status == "error"
    assert "either a month or dates" in str(answer.error)
