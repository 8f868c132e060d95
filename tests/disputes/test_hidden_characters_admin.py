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
    return chat_dispute(conversation, "Please dispute T-1001, it was not me", merchant="Coffee",
                        transaction="T-1001", amount="15000.00", reason="not_recognised")


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
