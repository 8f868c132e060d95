"""Writes are proposed only inside the mandate, for the customer's own targets (G7, G8)."""

from __future__ import annotations

import pytest

from accounts.models import Card
from disputes.models import Dispute
from tools.models import Proposal, ToolCallTrace
from tools.scopes import READ_CARDS


def dispute(reference: str, amount: str, reason: str = "not_recognised") -> dict:
    return {"transaction": reference, "amount": amount, "reason": reason}


def test_block_card_without_a_confirmation_changes_nothing(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "block my card 4242").call("block_card", {"card": "4242"})
    assert outcome.status == "awaiting_confirmation"
    assert "cannot make it happen" in outcome.message()["message"]
    assert Card.objects.get(last4="4242").status == "active"
    assert Proposal.objects.get().status == "pending"


def test_a_write_outside_the_mandate_is_denied_with_its_reason(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "show me October").call("block_card", {"card": "4242"})
    assert outcome.error.code == "not_in_mandate"
    assert "has not asked to block a card" in outcome.error.message
    assert not Proposal.objects.exists()
    assert ToolCallTrace.objects.get().reason_code == "not_in_mandate"


def test_another_card_than_the_one_named_is_denied(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "block my card 4242").call("block_card", {"card": "5505"})
    assert outcome.error.code == "target_not_in_mandate"


def test_my_card_means_the_only_active_card(alice_conversation, harness_for):
    Card.objects.filter(last4="5505").update(status="blocked", blocked_at="2026-01-01T00:00Z")
    outcome = harness_for(alice_conversation, "I lost my card, please block it").call(
        "block_card", {"card": "4242"}
    )
    assert outcome.status == "awaiting_confirmation"


def test_my_card_with_two_active_cards_is_not_a_target(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "I lost my card, please block it").call(
        "block_card", {"card": "4242"}
    )
    assert outcome.error.code == "target_not_in_mandate"
    assert "4242, 5505" in outcome.error.message  # the candidates, for the buttons


def test_a_foreign_card_answers_like_a_missing_one(alice_conversation, bob, harness_for):
    foreign = harness_for(alice_conversation, "block card 1111").call("block_card", {"card": "1111"})
    missing = harness_for(alice_conversation, "block card 9999").call("block_card", {"card": "9999"})
    assert foreign.error.code == missing.error.code == "target_not_in_mandate"
    assert foreign.error.message.replace("1111", "X") == missing.error.message.replace("9999", "X")


def test_a_blocked_card_is_not_proposed_again(alice_conversation, harness_for):
    Card.objects.filter(last4="4242").update(status="blocked", blocked_at="2026-01-01T00:00Z")
    outcome = harness_for(alice_conversation, "block 4242").call("block_card", {"card": "4242"})
    assert outcome.error.code == "card_already_blocked"


@pytest.mark.parametrize(
    ("text", "args", "code"),
    [
        ("dispute the Magnum charge", dispute("T-1001", "15000.00"), None),
        ("dispute T-1001", dispute("T-1001", "15000.00"), None),
        ("I did not make the 15000 KZT payment, dispute it", dispute("T-1001", "15000.00"), None),
        # a complaint is not a request: the assistant offers the buttons instead
        ("I did not make the 15000 KZT payment", dispute("T-1001", "15000.00"), "not_in_mandate"),
        ("dispute 5000 KZT of the Magnum charge", dispute("T-1001", "5000.00"), None),
        # the model invents a partial amount the customer never stated
        ("dispute the Magnum charge", dispute("T-1001", "100.00"), "target_not_in_mandate"),
        # the customer named Magnum; the model picked another row
        ("dispute the Magnum charge", dispute("T-1004", "99000.00"), "target_not_in_mandate"),
        ("dispute the Magnum charge", dispute("T-1001", "450000.00"), "target_not_in_mandate"),
        ("dispute T-1002", dispute("T-1002", "8000.00"), "dispute_window_closed"),
        # someone else's row answers like a missing one, and is never granted
        ("dispute T-2001", dispute("T-2001", "7000.00"), "target_not_in_mandate"),
        ("what did I spend?", dispute("T-1001", "15000.00"), "not_in_mandate"),
        ("dispute all of them", dispute("T-1004", "99000.00"), "target_not_in_mandate"),
    ],
)
def test_dispute_policy(alice_conversation, bob, harness_for, text, args, code):
    outcome = harness_for(alice_conversation, text).call("raise_dispute", args)
    if code is None:
        assert outcome.status == "awaiting_confirmation", outcome.message()
    else:
        assert outcome.status == "error"
        assert outcome.error.code == code
        assert len(outcome.error.message) > 20  # a sentence a person can act on
    assert not Dispute.objects.exists()


def test_a_statement_row_click_is_a_mandate(alice_conversation, harness_for):
    harness = harness_for(alice_conversation, "", ui={"operation": "raise_dispute", "transaction": "T-1004"})
    assert harness.call("raise_dispute", dispute("T-1004", "99000.00")).status == "awaiting_confirmation"


def test_a_second_open_dispute_is_refused_before_proposing(alice_conversation, alice, harness_for):
    import uuid

    from disputes.services import dispute_open

    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    )
    outcome = harness_for(alice_conversation, "dispute T-1001").call(
        "raise_dispute", dispute("T-1001", "15000.00")
    )
    assert outcome.error.code == "dispute_already_open"


def test_a_missing_scope_is_denied(alice_conversation, harness_for):
    outcome = harness_for(alice_conversation, "block my card 4242", scopes=frozenset({READ_CARDS})).call(
        "block_card", {"card": "4242"}
    )
    assert outcome.error.code == "missing_scope"
    assert "cards:block" in outcome.error.message


@pytest.mark.parametrize(
    ("name", "raw", "code"),
    [
        ("transfer_money", {"to": "KZ1", "amount": "1"}, "unknown_tool"),
        ("get_statement", "{not json", "invalid_json"),
        ("get_statement", "[1, 2]", "invalid_arguments"),
        ("get_statement", {"month": "October"}, "invalid_arguments"),
        ("block_card", {"card": "42"}, "invalid_arguments"),
        ("raise_dispute", {"transaction": "T-1001"}, "invalid_arguments"),
        ("raise_dispute", dispute("T-1001", "-5"), "invalid_arguments"),
        (None, {}, "unknown_tool"),
    ],
)
def test_malformed_calls_get_structured_errors(alice_conversation, harness_for, name, raw, code):
    outcome = harness_for(alice_conversation, "dispute T-1001, block 4242").call(name, raw)
    message = outcome.message()
    assert message["status"] == "error"
    assert message["error"]["code"] == code
    assert message["error"]["message"].endswith(".")
    assert ToolCallTrace.objects.filter(event="denied", reason_code=code).count() == 1


def test_a_date_alone_identifies_only_the_days_single_transaction(alice, alice_conversation, harness_for):
    from accounts.models import Transaction
    from tests.factories import days_ago

    day = days_ago(5)
    text = f"dispute the charge on {day:%Y-%m-%d}"
    # T-1001 is alone on its day: the date identifies it.
    alone = harness_for(alice_conversation, text).call("raise_dispute", dispute("T-1001", "15000.00"))
    assert alone.status == "awaiting_confirmation"
    # A second charge the same day: the date no longer says which one.
    Transaction.objects.create(
        account=alice.accounts.get(),
        reference="T-1009",
        posted_at=day.replace(hour=15),
        amount="700.00",
        merchant="Small",
        description="Groceries",
    )
    Proposal.objects.all().update(status="declined")
    both = harness_for(alice_conversation, text).call("raise_dispute", dispute("T-1009", "700.00"))
    assert both.error.code == "target_not_in_mandate"
