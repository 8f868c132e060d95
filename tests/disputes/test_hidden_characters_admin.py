"""Support staff see a merchant's invisible and bidirectional control characters as
visible markers in admin: the transaction list and page, the dispute queue and the
dispute's trail (the transaction, the excerpts read before proposing, the trace)."""

from __future__ import annotations

import pytest

from accounts.models import Transaction
from bankbot.models import Conversation
from tests.hidden_text import HIDDEN, assert_shown

pytestmark = pytest.mark.django_db


@pytest.fixture
def hidden_dispute(alice, chat_dispute):
    Transaction.objects.filter(reference="T-1001").update(merchant=HIDDEN, description=HIDDEN)
    conversation = Conversation.objects.create(customer=alice)
    return chat_dispute(
        conversation,
        "Please dispute T-1001, it was not me",
        merchant="Coffee",
        transaction="T-1001",
        amount="15000.00",
        reason="not_recognised",
    )


def test_the_transaction_list_and_page_show_them(staff_client, alice):
    Transaction.objects.filter(reference="T-1001").update(merchant=HIDDEN, description=HIDDEN)
    txn = Transaction.objects.get(reference="T-1001")
    assert_shown(staff_client.get("/admin/accounts/transaction/").content.decode())
    page = staff_client.get(f"/admin/accounts/transaction/{txn.pk}/change/").content.decode()
    assert 'name="merchant"' not in page  # still read-only
    assert_shown(page)


def test_the_dispute_queue_shows_them(staff_client, hidden_dispute):
    assert_shown(staff_client.get("/admin/disputes/dispute/").content.decode())


def test_the_dispute_trail_shows_them(staff_client, hidden_dispute):
    page = staff_client.get(f"/admin/disputes/dispute/{hidden_dispute.pk}/change/")
    html = page.content.decode()
    assert "External text read before proposing" in html
    assert_shown(html)


def test_the_trail_shows_them_in_staff_notes(staff_client, alice, staff, chat_dispute):
    from disputes.services import dispute_review

    dispute = chat_dispute(
        Conversation.objects.create(customer=alice),
        "Please dispute T-1001, it was not me",
        merchant="Coffee",
        transaction="T-1001",
        amount="15000.00",
        reason="not_recognised",
    )
    review = dispute_review(
        dispute=dispute, to_status="in_review", note=HIDDEN, staff_user=staff, customer_note=HIDDEN
    )
    html = staff_client.get(f"/admin/disputes/dispute/{dispute.pk}/change/").content.decode()
    reviews = html[html.index('id="dispute-reviews"') :]
    assert "Note for the customer" in reviews
    assert_shown(reviews[: reviews.index("</fieldset>")])
    # The review's own page, too.
    assert_shown(staff_client.get(f"/admin/disputes/disputereview/{review.pk}/change/").content.decode())
