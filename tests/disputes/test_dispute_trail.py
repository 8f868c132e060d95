"""The dispute page shows how the dispute came to be — its transaction, the conversation,
the confirmation and the trace rows that led to it — and nothing of any other dispute."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import Transaction
from bankbot.dispute_trail import dispute_trail
from bankbot.models import Conversation
from disputes.models import Dispute
from tools.models import Confirmation, ToolCallTrace
from tools.naive import NaiveHarness


def page(client, dispute: Dispute) -> str:
    response = client.get(f"/admin/disputes/dispute/{dispute.pk}/change/")
    assert response.status_code == 200
    return response.content.decode()


def confirmation_of(dispute: Dispute) -> Confirmation:
    return Confirmation.objects.select_related("proposal").get(idempotency_key=dispute.idempotency_key)


@pytest.fixture
def alice_dispute(alice, chat_dispute) -> Dispute:
    conversation = Conversation.objects.create(customer=alice)
    return chat_dispute(
        conversation,
        "Please dispute the Magnum charge, it was not me",
        merchant="Magnum",
        transaction="T-1001",
        amount="15000.00",
        reason="not_recognised",
    )


@pytest.fixture
def bob_dispute(bob, chat_dispute) -> Dispute:
    conversation = Conversation.objects.create(customer=bob)
    return chat_dispute(
        conversation,
        "Dispute the Yandex taxi ride, I never took it",
        merchant="Yandex",
        transaction="T-2001",
        amount="7000.00",
        reason="not_recognised",
    )


def test_it_gathers_exactly_the_rows_that_led_to_the_dispute(alice_dispute, bob_dispute):
    confirmation = confirmation_of(alice_dispute)
    proposal = confirmation.proposal
    own = set(ToolCallTrace.objects.filter(proposal=proposal).values_list("pk", flat=True))
    read = set(
        ToolCallTrace.objects.filter(conversation=proposal.conversation, event="called").values_list(
            "pk", flat=True
        )
    )

    trail = dispute_trail(dispute=alice_dispute)

    assert trail.confirmation == confirmation
    assert {row.pk for row in trail.trace} == own | read
    assert [row.event for row in trail.trace] == ["called", "proposed", "executed"]
    assert [m.text for m in trail.messages] == [
        "Please dispute the Magnum charge, it was not me",
        f"Please check and confirm: {proposal.summary}",
    ]


def test_it_shows_the_dispute_its_own_confirmation_and_none_of_another(
    staff_client, alice_dispute, bob_dispute
):
    mine, theirs = confirmation_of(alice_dispute), confirmation_of(bob_dispute)

    shown = page(staff_client, alice_dispute)

    assert str(mine.idempotency_key) in shown
    assert mine.proposal.reference in shown
    assert "Confirmed by</th><td>alice</td>" in shown
    assert "Please dispute the Magnum charge, it was not me" in shown
    assert "find_transactions" in shown
    assert str(theirs.idempotency_key) not in shown
    assert theirs.proposal.reference not in shown
    assert "Yandex" not in shown
    assert "T-2001" not in shown


def test_it_keeps_two_disputes_of_one_conversation_apart(staff_client, alice, chat_dispute):
    conversation = Conversation.objects.create(customer=alice)
    first = chat_dispute(
        conversation,
        "Dispute the Magnum charge",
        merchant="Magnum",
        transaction="T-1001",
        amount="15000.00",
        reason="not_recognised",
    )
    second = chat_dispute(
        conversation,
        "And dispute the Air Astana flight too",
        merchant="Astana",
        transaction="T-1004",
        amount="99000.00",
        reason="not_recognised",
    )
    first_confirmation, second_confirmation = confirmation_of(first), confirmation_of(second)

    first_page, second_page = page(staff_client, first), page(staff_client, second)

    assert str(first_confirmation.idempotency_key) in first_page
    assert str(second_confirmation.idempotency_key) not in first_page
    assert second_confirmation.proposal.reference not in first_page
    assert str(second_confirmation.idempotency_key) in second_page
    assert str(first_confirmation.idempotency_key) not in second_page
    assert first_confirmation.proposal.reference not in second_page
    # The first dispute's story ends at its execution: the later lookup is not in it.
    assert {r.tool for r in dispute_trail(dispute=first).trace} == {"find_transactions", "raise_dispute"}
    assert not [
        r
        for r in dispute_trail(dispute=first).trace
        if r.validated_args and r.validated_args.get("merchant") == "Astana"
    ]


def test_it_says_clearly_when_no_confirmation_is_on_record(staff_client, alice_conversation):
    # The lab's naive harness writes the moment the model asks: no proposal, no click.
    NaiveHarness(alice_conversation.customer, alice_conversation).call(
        "raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"}
    )
    dispute = Dispute.objects.get()

    shown = page(staff_client, dispute)

    assert "No confirmation on record" in shown
    assert dispute_trail(dispute=dispute).confirmation is None
    assert dispute_trail(dispute=dispute).trace == []
    assert "I don&#x27;t recognise this payment" in shown  # the reason code, in words


def test_it_shows_the_review_history_with_names_and_notes(staff_client, staff, dispute):
    staff_client.post(
        f"/admin/disputes/dispute/{dispute.pk}/review/",
        {"to_status": "in_review", "note": "Called the merchant"},
    )

    shown = page(staff_client, dispute)

    assert "Called the merchant" in shown
    assert "<td>support</td>" in shown
    assert "Not reviewed yet" not in shown


def test_it_escapes_merchant_text_everywhere_on_the_page(staff_client, alice, chat_dispute):
    account = alice.accounts.get()
    Transaction.objects.create(
        account=account,
        reference="T-1005",
        posted_at=timezone.now() - timedelta(days=2),
        amount=Decimal("500.00"),
        merchant='<script>alert("merchant")</script>',
        description='<img src=x onerror=alert("desc")>',
    )
    conversation = Conversation.objects.create(customer=alice)
    dispute = chat_dispute(
        conversation,
        "Dispute T-1005 please",
        merchant="script",
        transaction="T-1005",
        amount="500.00",
        reason="not_recognised",
    )

    shown = page(staff_client, dispute)
    queue = staff_client.get("/admin/disputes/dispute/").content.decode()

    for html in (shown, queue):
        assert '<script>alert("merchant")' not in html
        assert "&lt;script&gt;alert(&quot;merchant&quot;)&lt;/script&gt;" in html
    assert "<img src=x" not in shown
    assert "&lt;img src=x onerror=alert(&quot;desc&quot;)&gt;" in shown
