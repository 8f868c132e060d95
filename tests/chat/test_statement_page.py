"""/statement/?month=YYYY-MM: the month's transactions as a table, each with a
"Dispute…" button, and the customer's cards with "Block…"."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import days_ago

pytestmark = pytest.mark.django_db


def month_of(days: int) -> str:
    return f"{timezone.localdate(days_ago(days)):%Y-%m}"


def test_it_shows_the_months_transactions(browser_for, alice):
    month = month_of(5)
    html = browser_for(alice).get(f"/statement/?month={month}").content.decode()
    assert 'class="txn-table statement-rows"' in html and "T-1001" in html
    assert "Magnum Cash&amp;Carry" in html and "15,000.00" in html
    for header in ("Date", "Merchant", "Amount", "Reference"):
        assert f'<th scope="col">{header}</th>' in html or f">{header}</th>" in html


def test_each_row_has_a_dispute_button(browser_for, alice):
    html = browser_for(alice).get(f"/statement/?month={month_of(5)}").content.decode()
    assert 'name="operation" value="raise_dispute"' in html
    assert 'name="target" value="T-1001"' in html
    assert 'aria-label="Dispute T-1001…"' in html


def test_it_lists_the_cards_with_block_buttons(browser_for, alice):
    html = browser_for(alice).get("/statement/").content.decode()
    assert "Visa •••• 4242" in html and "Visa •••• 5505" in html
    assert 'name="operation" value="block_card"' in html and 'value="5505"' in html


def test_it_shows_only_the_customers_own_transactions(browser_for, bob, alice):
    html = browser_for(bob).get(f"/statement/?month={month_of(5)}").content.decode()
    assert "T-1001" not in html and "4242" not in html


def test_it_explains_a_bad_month(browser_for, alice):
    response = browser_for(alice).get("/statement/?month=2026-13")
    assert response.status_code == 400
    assert "write it as YYYY-MM" in response.content.decode()


def test_it_needs_a_signed_in_customer(client):
    assert client.get("/statement/").status_code == 302


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"month": "9999-12"}, "write a month from 1900-01 to 9998-12"),
        ({"month": "1899-12"}, "write a month from 1900-01 to 9998-12"),
        ({"page": "0"}, "Pages are numbered from 1."),
        ({"page": "abc"}, "Pages are numbered from 1."),
        ({"page": "9" * 5000}, "Pages are numbered from 1."),
        ({"page": "99999999999999999999"}, "has 1 page; ask for a page from 1 to 1."),
        ({"page": "9223372036854775807"}, "has 1 page; ask for a page from 1 to 1."),
        ({"page": "2"}, "has 1 page; ask for a page from 1 to 1."),
    ],
)
def test_it_explains_a_month_or_page_out_of_range(browser_for, alice, fields, said):
    response = browser_for(alice).get("/statement/", {"month": month_of(5), **fields})
    assert response.status_code == 400
    assert said in response.content.decode()


def test_it_links_no_month_past_the_last_it_can_show(browser_for, alice):
    html = browser_for(alice).get("/statement/?month=9998-12").content.decode()
    assert "?month=9998-11" in html and "?month=9999-01" not in html


def test_a_disputed_row_says_its_status_and_offers_no_second_dispute(browser_for, alice, alice_conversation):
    import uuid

    from disputes.models import Dispute
    from disputes.services import dispute_open

    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    )
    client = browser_for(alice)
    html = client.get(f"/statement/?month={month_of(5)}").content.decode()
    assert "Dispute open</span>" in html
    assert 'name="target" value="T-1001"' not in html  # no second "Dispute…" while it is open
    Dispute.objects.update(status=Dispute.Status.REJECTED)
    html = client.get(f"/statement/?month={month_of(5)}").content.decode()
    assert "Dispute rejected</span>" in html and 'name="target" value="T-1001"' in html


def test_a_rows_button_names_no_conversation(browser_for, alice, alice_conversation):
    """It starts its action in a conversation of its own, not in the newest one."""
    html = browser_for(alice).get(f"/statement/?month={month_of(5)}").content.decode()
    assert 'name="operation" value="raise_dispute"' in html
    assert 'name="conversation"' not in html


def test_a_statement_in_the_chat_shows_the_dispute_as_it_is_now(browser_for, alice, alice_conversation):
    """The chat's statement table, reloaded after the row was disputed, says so too."""
    from tests.chat.test_dispute_news import open_dispute

    client = browser_for(alice)
    client.post(
        "/messages/",
        {"conversation": str(alice_conversation.public_id), "text": f"Show my statement for {month_of(5)}"},
    )
    open_dispute(client, alice_conversation)
    html = client.get(f"/c/{alice_conversation.public_id}/").content.decode()
    assert "Dispute open</span>" in html
    assert 'aria-label="Dispute T-1001…"' not in html
