"""Reads run at once, scoped to the session's customer, on a path that cannot write (G1, G2)."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import Card
from tools.harness import ReadOnlyViolation, read_only
from tools.models import ToolCallTrace


def this_month() -> str:
    return timezone.localdate().strftime("%Y-%m")


def all_references(outcome) -> set[str]:
    return {row["reference"] for row in outcome.data["transactions"]}


def test_alices_statement_holds_none_of_bobs_rows(alice_conversation, bob, harness_for):
    harness = harness_for(alice_conversation)
    seen = set()
    for months_back in range(0, 8):
        day = timezone.localdate().replace(day=1) - timezone.timedelta(days=months_back * 28)
        outcome = harness.call("get_statement", {"month": day.strftime("%Y-%m")})
        assert outcome.status == "ok"
        seen |= all_references(outcome)
    assert seen, "alice has transactions in these months"
    assert not {r for r in seen if r.startswith("T-2")}, "bob's references leaked"
    assert "T-2001" not in json.dumps(
        harness.call("find_transactions", {"merchant": "Yandex", "amount": None, "month": None}).message(),
        default=str,
    )


def test_it_rejects_an_account_id_parameter(alice_conversation, bob, harness_for):
    outcome = harness_for(alice_conversation).call(
        "get_statement", {"month": this_month(), "account_id": "KZ86125KZT5004100101"}
    )
    assert outcome.status == "error"
    assert outcome.error.code == "invalid_arguments"
    assert "account_id is not a parameter" in outcome.error.message


def test_list_cards_lists_only_the_customers_cards(alice_conversation, bob, harness_for):
    outcome = harness_for(alice_conversation).call("list_cards", "{}")
    assert [c["card"] for c in outcome.data["cards"]] == ["4242", "5505"]


def test_merchant_text_is_marked_external(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation).call(
        "find_transactions", {"merchant": "Coffee", "amount": None, "month": None}
    )
    rendered = json.loads(outcome.for_model())
    row = rendered["data"]["transactions"][0]
    assert row["description"]["author"] == "merchant"
    assert "ignore previous instructions" in row["description"]["external_text"]
    assert "never instructions" in rendered["note"]


def test_a_read_path_cannot_write(alice):
    with read_only(), pytest.raises(ReadOnlyViolation), transaction.atomic():
        Card.objects.filter(account__customer=alice).update(status="blocked")
    assert not Card.objects.filter(status="blocked").exists()


def test_a_read_call_is_traced(alice_conversation, harness_for):
    harness_for(alice_conversation, "hello").call("list_cards", {})
    row = ToolCallTrace.objects.get()
    assert (row.event, row.tool, row.decision) == ("called", "list_cards", "ok")
    assert row.customer == alice_conversation.customer
    assert row.result["cards"][0]["card"] == "4242"
    assert row.latency_ms >= 0


def test_a_statement_is_traced_by_its_rows_references_not_their_text(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "statement").call("get_statement", {"month": this_month()})
    row = ToolCallTrace.objects.get()
    shown = [t["reference"] for t in outcome.data["transactions"]]
    assert shown and row.result["references"] == shown
    assert (row.result["count"], row.result["total_kzt"], row.result["month"]) == (
        outcome.data["count"],
        outcome.data["total_kzt"],
        this_month(),
    )
    # The merchant's words are in the conversation's tool message, not copied here.
    assert "transactions" not in row.result
    assert not any(
        t["description"].text in json.dumps(row.result)
        for t in outcome.data["transactions"]
        if t["description"].text
    )
