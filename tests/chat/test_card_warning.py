"""The confirm card warns only about text that could have shaped its proposal
(issue 15, point 6): a statement full of merchants' words read a turn earlier puts
no "and 14 more texts" on a card for a block the customer asked for."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import Transaction
from tests.chat.helpers import statement_request
from tests.factories import days_ago

pytestmark = pytest.mark.django_db


def test_a_card_after_a_statement_quotes_none_of_its_merchants(browser_for, alice, alice_conversation):
    first = Transaction.objects.get(reference="T-1001")
    for n in range(10):
        Transaction.objects.create(
            account=first.account,
            card=first.card,
            reference=f"T-50{n:02d}",
            posted_at=days_ago(5),
            amount=Decimal("1000.00"),
            merchant=f"Shop {n}",
            description=f"Purchase {n}",
        )
    client = browser_for(alice)
    conversation = str(alice_conversation.public_id)
    client.post("/messages/", {"conversation": conversation, "text": statement_request()})
    client.post("/messages/", {"conversation": conversation, "text": "block my card 4242"})

    html = client.get(f"/c/{conversation}/").content.decode()
    assert "Please confirm this action" in html
    assert "Shop 3" in html  # the statement is there
    assert "more texts" not in html and "written by" not in html
