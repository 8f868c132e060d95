"""HourlyTotal: the database keeps each account's count and total of transactions
per UTC hour exact, whichever path writes them, and a statement's count and total
come from it instead of from the month's rows (issue 8, benchmark d)."""

from __future__ import annotations

import importlib
from collections import defaultdict
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Count, Sum
from django.test.utils import CaptureQueriesContext

from accounts.models import Account, Customer, HourlyTotal, Transaction
from accounts.selectors import parse_month, statement_for_month
from tests.accounts.helpers import add, local


def kept() -> dict[tuple[int, datetime], tuple[int, Decimal]]:
    """What the triggers keep."""
    return {
        (row.account_id, row.hour): (row.count, Decimal(row.total_minor).scaleb(-2))
        for row in HourlyTotal.objects.all()
    }


def recounted() -> dict[tuple[int, datetime], tuple[int, Decimal]]:
    """The same, counted again from every transaction there is."""
    sums: dict[tuple[int, datetime], list] = defaultdict(lambda: [0, Decimal("0.00")])
    for row in Transaction.objects.all():
        hour = row.posted_at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
        sums[(row.account_id, hour)][0] += 1
        sums[(row.account_id, hour)][1] += row.amount
    return {key: (count, total) for key, (count, total) in sums.items()}


def month_from_rows(customer: Customer, month: str) -> tuple[int, Decimal]:
    """COUNT and SUM over the month's rows: what the statement computed before."""
    start, end = parse_month(month).bounds()
    rows = Transaction.objects.filter(
        account__customer=customer, posted_at__gte=start, posted_at__lt=end
    ).aggregate(count=Count("id"), total=Sum("amount"))
    return rows["count"], rows["total"] or Decimal("0.00")


def totals(customer: Customer, month: str) -> tuple[int, Decimal]:
    statement = statement_for_month(customer=customer, month=month)
    return statement.count, statement.total


def assert_exact(customer: Customer, *months: str) -> None:
    assert kept() == recounted()
    for month in months:
        assert totals(customer, month) == month_from_rows(customer, month)


def test_it_counts_a_transaction_created_through_the_orm(alice):
    add(alice, "T-6001", local(2025, 3, 10, 12, 15), "100.25")
    add(alice, "T-6002", local(2025, 3, 10, 12, 45), "0.10")

    assert totals(alice, "2025-03") == (2, Decimal("100.35"))
    assert_exact(alice, "2025-03")


def test_it_counts_rows_from_bulk_create(alice, bob):
    accounts = [alice.accounts.get(), bob.accounts.get()]
    Transaction.objects.bulk_create(
        [  # one INSERT: 30 rows, two accounts, a few hours
            Transaction(
                account=accounts[n % 2],
                reference=f"T-61{n:02d}",
                posted_at=local(2025, 4, 1 + n % 3, 9, n),
                amount=Decimal("0.10") * (n + 1),
                merchant="Sulpak",
            )
            for n in range(30)
        ]
    )

    assert totals(alice, "2025-04") == (15, Decimal("22.50"))
    assert totals(bob, "2025-04") == (15, Decimal("24.00"))
    assert_exact(alice, "2025-04")
    assert_exact(bob, "2025-04")


def test_it_counts_rows_inserted_with_raw_sql(alice):
    account = alice.accounts.get()
    at = connection.ops.adapt_datetimefield_value
    rows = [(account.pk, f"T-62{n:02d}", at(local(2025, 5, 20, 10, n)), Decimal("1.01")) for n in range(5)]
    values = ", ".join(["(%s, NULL, %s, %s, %s, 'Raw', '')"] * len(rows))  # placeholders only
    sql = (
        "INSERT INTO accounts_transaction (account_id, card_id, reference, posted_at, amount,"  # noqa: S608
        f" merchant, description) VALUES {values}"
    )
    with connection.cursor() as cursor:  # one statement, five rows in one hour
        cursor.execute(sql, [value for row in rows for value in row])

    assert totals(alice, "2025-05") == (5, Decimal("5.05"))
    assert_exact(alice, "2025-05")


def test_it_follows_a_changed_amount(alice):
    first = add(alice, "T-6301", local(2025, 6, 5, 12), "100.00")
    add(alice, "T-6302", local(2025, 6, 5, 12, 30), "50.00")

    first.amount = Decimal("70.01")
    first.save()
    Transaction.objects.filter(reference="T-6302").update(amount=Decimal("0.99"))

    assert totals(alice, "2025-06") == (2, Decimal("71.00"))
    assert_exact(alice, "2025-06")


def test_it_moves_a_transaction_across_a_local_month_boundary(alice):
    moved = add(alice, "T-6401", local(2025, 3, 31, 23, 30), "300.00")
    add(alice, "T-6402", local(2025, 3, 15, 12), "1.00")

    moved.posted_at = local(2025, 4, 1, 0, 30)
    moved.save()

    assert totals(alice, "2025-03") == (1, Decimal("1.00"))
    assert totals(alice, "2025-04") == (1, Decimal("300.00"))
    assert_exact(alice, "2025-03", "2025-04")


def test_it_moves_a_transaction_to_another_account(alice, bob):
    add(alice, "T-6501", local(2025, 7, 3, 8), "42.00")

    Transaction.objects.filter(reference="T-6501").update(account=bob.accounts.get())

    assert totals(alice, "2025-07") == (0, Decimal("0.00"))
    assert totals(bob, "2025-07") == (1, Decimal("42.00"))
    assert_exact(bob, "2025-07")


def test_it_leaves_the_hour_alone_when_other_columns_change(alice):
    add(alice, "T-6551", local(2025, 7, 9, 8), "42.00")
    before = list(HourlyTotal.objects.values_list("id", "count", "total_minor"))

    Transaction.objects.filter(reference="T-6551").update(description="Corrected text")

    assert list(HourlyTotal.objects.values_list("id", "count", "total_minor")) == before


def test_it_subtracts_deleted_rows_and_drops_an_emptied_hour(alice):
    add(alice, "T-6601", local(2025, 8, 1, 10), "10.00")
    add(alice, "T-6602", local(2025, 8, 1, 10, 20), "20.00")
    gone = add(alice, "T-6603", local(2025, 8, 2, 10), "30.00")

    gone.delete()
    Transaction.objects.filter(reference="T-6601").delete()

    assert totals(alice, "2025-08") == (1, Decimal("20.00"))
    assert not HourlyTotal.objects.filter(count=0).exists()
    assert_exact(alice, "2025-08")


def test_it_puts_23_30_on_the_last_day_and_00_30_on_the_first_in_their_own_months(alice):
    add(alice, "T-6701", local(2025, 9, 30, 23, 30), "100.00")
    add(alice, "T-6702", local(2025, 10, 1, 0, 30), "200.00")

    assert totals(alice, "2025-09") == (1, Decimal("100.00"))
    assert totals(alice, "2025-10") == (1, Decimal("200.00"))
    assert_exact(alice, "2025-09", "2025-10")


def test_it_splits_an_hour_that_a_half_hour_zone_cuts_at_midnight(alice, settings):
    # India's midnight is 18:30 UTC: both rows fall in the UTC hour 18:00-19:00,
    # on either side of the month's edge.
    settings.TIME_ZONE = "Asia/Kolkata"
    add(alice, "T-6801", local(2025, 3, 31, 23, 30), "100.00")
    add(alice, "T-6802", local(2025, 4, 1, 0, 10), "200.00")
    add(alice, "T-6803", local(2025, 4, 30, 23, 50), "4.00")
    add(alice, "T-6804", local(2025, 5, 1, 0, 20), "8.00")

    assert totals(alice, "2025-03") == (1, Decimal("100.00"))
    assert totals(alice, "2025-04") == (2, Decimal("204.00"))
    assert totals(alice, "2025-05") == (1, Decimal("8.00"))
    assert_exact(alice, "2025-03", "2025-04", "2025-05")
    # April's two rows both lie in part-hours, none in a whole hour of April.
    april = statement_for_month(customer=alice, month="2025-04")
    assert [row.reference for row in april.transactions] == ["T-6802", "T-6803"]


def test_it_totals_a_month_without_reading_its_transactions(alice):
    for day in range(1, 11):
        add(alice, f"T-69{day:02d}", local(2025, 11, day, 12), "10.00")

    with CaptureQueriesContext(connection) as captured:
        statement = statement_for_month(customer=alice, month="2025-11", page_size=3)

    assert (statement.count, statement.total) == (10, Decimal("100.00"))
    sums = [q["sql"] for q in captured if "SUM(" in q["sql"].upper()]
    assert len(sums) == 1
    assert 'FROM "accounts_hourlytotal"' in sums[0]
    reads_of_rows = [q["sql"] for q in captured if "accounts_transaction" in q["sql"]]
    assert len(reads_of_rows) == 1  # the page, and only the page
    assert "LIMIT 4" in reads_of_rows[0]
    # By account: the (account, posted_at) index gives the order, so the LIMIT
    # stops the scan instead of sorting the whole month.
    assert '"accounts_transaction"."account_id" = ' in reads_of_rows[0]
    assert "COUNT(" not in reads_of_rows[0].upper()


def test_it_pages_and_totals_a_customer_with_two_accounts(alice):
    # The page is read account by account (each in its index's order) and merged.
    accounts = [alice.accounts.get(), Account.objects.create(customer=alice, number="KZ86125KZT5004100199")]
    for n in range(9):
        Transaction.objects.create(
            account=accounts[n % 2],
            reference=f"T-71{n:02d}",
            amount=Decimal(n + 1),
            posted_at=local(2026, 2, 1 + n // 3, 12),
            merchant="Kaspi Magazin",  # ties by threes
        )
    expected = list(
        Transaction.objects.filter(account__customer=alice, reference__startswith="T-71")
        .order_by("posted_at", "id")
        .values_list("reference", flat=True)
    )

    pages = [statement_for_month(customer=alice, month="2026-02", page=n, page_size=4) for n in (1, 2, 3)]

    assert [row.reference for p in pages for row in p.transactions] == expected
    assert [p.has_more for p in pages] == [True, True, False]
    assert {(p.count, p.total) for p in pages} == {(9, Decimal("45.00"))}
    assert_exact(alice, "2026-02")


def test_the_backfill_rebuilds_what_the_triggers_keep(alice, bob):
    add(alice, "T-7001", local(2025, 12, 1, 0, 5), "12.34")
    add(alice, "T-7002", local(2025, 12, 1, 0, 55), "0.66")
    add(alice, "T-7003", local(2025, 12, 31, 23, 59), "1000000.01")
    kept_by_triggers = kept()
    migration = importlib.import_module("accounts.migrations.0004_hourly_total")

    HourlyTotal.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute(migration.BACKFILL[connection.vendor])

    assert kept() == kept_by_triggers == recounted()


@pytest.mark.postgres
def test_it_empties_with_a_truncated_table(alice):
    with connection.cursor() as cursor:
        # The fixture's deferred foreign-key checks must run first: PostgreSQL
        # refuses to truncate a table with pending trigger events.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE accounts_transaction CASCADE")

    assert not HourlyTotal.objects.exists()
    assert Account.objects.filter(customer=alice).exists()
