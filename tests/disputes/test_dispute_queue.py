"""The dispute queue in admin: what staff see per row, oldest open first, filters and
search, and a cost in queries that does not grow with the number of disputes."""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Transaction
from disputes.models import Dispute

QUEUE = "/admin/disputes/dispute/"
S = Dispute.Status
# The session, the user, their own and their groups' permissions, the filtered and
# the total count, and one page of rows joined to customers, users and transactions.
QUEUE_QUERIES = 7


def make(reference: str, status: str, days_old: int, *, number: int) -> Dispute:
    txn = Transaction.objects.get(reference=reference)
    dispute = Dispute.objects.create(
        customer=txn.account.customer,
        transaction=txn,
        amount=Decimal("100.00"),
        reason="not_recognised",
        status=status,
        idempotency_key=uuid.uuid4(),
        reference=f"D-{number}",
    )
    Dispute.objects.filter(pk=dispute.pk).update(created_at=timezone.now() - timedelta(days=days_old))
    return dispute


@pytest.fixture
def queue(alice, bob) -> dict[str, Dispute]:
    return {
        "resolved_old": make("T-1002", S.RESOLVED, 30, number=901),
        "opened_2d": make("T-1001", S.OPENED, 2, number=902),
        "in_review_5d": make("T-1004", S.IN_REVIEW, 5, number=903),
        "rejected_1d": make("T-2002", S.REJECTED, 1, number=904),
        "opened_1d": make("T-2001", S.OPENED, 1, number=905),
    }


def shown(response) -> list[str]:
    return [d.reference for d in response.context["cl"].result_list]


def test_it_lists_oldest_open_disputes_first_then_closed_ones(staff_client, queue):
    response = staff_client.get(QUEUE)

    assert shown(response) == ["D-903", "D-902", "D-905", "D-901", "D-904"]


def test_it_shows_reference_customer_transaction_amount_status_and_age(staff_client, queue):
    page = staff_client.get(QUEUE).content.decode()

    for header in ("Reference", "Customer", "Transaction", "Merchant", "Amount", "Status", "Age"):
        assert f">{header}</a>" in page
    row = page.split('href="/admin/disputes/dispute/{}/change/"'.format(queue["in_review_5d"].pk))[1].split(
        "</tr>"
    )[0]
    for cell in ("D-903", "Alice Akhmetova", "T-1004", "Air Astana", "100.00", "In review", "5\xa0days"):
        assert cell in row


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("D-904", ["D-904"]),
        ("Bekov", ["D-905", "D-904"]),
        ("bob", ["D-905", "D-904"]),
        ("Magnum", ["D-902"]),
        ("T-1004", ["D-903"]),
    ],
)
def test_it_searches_by_reference_customer_and_merchant(staff_client, queue, query, expected):
    response = staff_client.get(QUEUE, {"q": query})

    assert shown(response) == expected


def test_it_filters_by_status(staff_client, queue):
    response = staff_client.get(QUEUE, {"status__exact": S.OPENED})

    assert shown(response) == ["D-902", "D-905"]


def test_it_filters_by_date(staff_client, queue):
    since = timezone.localtime() - timedelta(days=3)

    response = staff_client.get(QUEUE, {"created_at__gte": since.isoformat()})

    assert shown(response) == ["D-902", "D-905", "D-904"]


def test_it_lets_staff_sort_by_age_instead(staff_client, queue):
    age_column = staff_client.get(QUEUE).context["cl"].list_display.index("age")

    response = staff_client.get(QUEUE, {"o": str(age_column)})

    assert shown(response) == ["D-901", "D-903", "D-902", "D-904", "D-905"]


def many_disputes(customer, count: int, *, first: int) -> None:
    """``count`` disputes in every status, each on a transaction of its own."""
    account = customer.accounts.get()
    posted = timezone.now() - timedelta(days=1)
    transactions = Transaction.objects.bulk_create(
        Transaction(
            account=account,
            reference=f"T-{first + n}",
            posted_at=posted,
            amount=Decimal("10.00"),
            merchant=f"Shop {n}",
        )
        for n in range(count)
    )
    statuses = S.values
    Dispute.objects.bulk_create(
        Dispute(
            customer=customer,
            transaction=txn,
            amount=Decimal("10.00"),
            reason="not_recognised",
            status=statuses[n % len(statuses)],
            idempotency_key=uuid.uuid4(),
            reference=f"D-{first + n}",
        )
        for n, txn in enumerate(transactions)
    )


def queue_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(QUEUE)
    assert response.status_code == 200
    return len(queries)


def test_it_renders_the_queue_of_a_thousand_disputes_in_a_fixed_number_of_queries(
    staff_client, alice, bob, django_assert_max_num_queries
):
    many_disputes(bob, 1, first=90000)
    with_one = queue_queries(staff_client)
    many_disputes(alice, 999, first=50000)
    assert Dispute.objects.count() == 1000

    with django_assert_max_num_queries(QUEUE_QUERIES):
        response = staff_client.get(QUEUE)

    assert response.status_code == 200
    assert len(response.context["cl"].result_list) == 100  # one page of the queue
    assert response.context["cl"].result_count == 1000
    assert queue_queries(staff_client) == with_one
