"""seed_demo: the demo customers, the support user and transactions with planted
injections; running it again changes nothing."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from accounts.demo import DEMO_LOGINS, MONTHS, PER_MONTH, TODAY
from accounts.models import Account, Card, Customer, Transaction
from accounts.selectors import statement_for_month
from disputes.roles import SUPPORT_GROUP

pytestmark = pytest.mark.django_db

INJECTION_PHRASES = ("ignore previous instructions", "system:", "already confirmed")


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def snapshot() -> dict[str, list[tuple]]:
    return {
        "transactions": list(
            Transaction.objects.order_by("reference").values_list(
                "reference",
                "amount",
                "merchant",
                "description",
                "posted_at",
                "account__number",
                "card__last4",
            )
        ),
        "cards": list(
            Card.objects.order_by("account__number", "last4").values_list(
                "account__number", "last4", "brand", "status", "blocked_at"
            )
        ),
        "accounts": list(
            Account.objects.order_by("number").values_list("number", "customer__user__username", "balance")
        ),
        "users": list(
            get_user_model()
            .objects.order_by("username")
            .values_list("username", "password", "is_staff", "is_superuser")
        ),
        "customers": list(Customer.objects.order_by("full_name").values_list("full_name", "user__username")),
    }


def test_it_creates_alice_bob_and_support():
    seed()

    users = get_user_model().objects
    assert Customer.objects.get(user__username="alice").accounts.count() == 1
    assert Customer.objects.get(user__username="bob").accounts.count() == 1
    support = users.get(username="support")
    assert support.is_staff is True
    assert support.is_superuser is False
    assert not Customer.objects.filter(user=support).exists()
    assert list(support.groups.values_list("name", flat=True)) == [SUPPORT_GROUP]
    assert support.has_perm("support.take_handoff")  # takes conversations at /support/
    assert support.first_name == "Aigerim"  # "Aigerim from support", to customers
    assert users.get(username="alice").is_staff is False


def test_it_prints_working_logins():
    output = seed()

    for username, password, _role in DEMO_LOGINS:
        assert username in output
        assert password in output
        assert get_user_model().objects.get(username=username).check_password(password)


def test_it_leaves_identical_data_when_run_twice():
    first_output = seed()
    before = snapshot()

    second_output = seed()

    assert snapshot() == before
    assert f"alice: {MONTHS * PER_MONTH + len(TODAY)} new transactions" in first_output
    assert "alice: 0 new transactions" in second_output
    assert "bob: 0 new transactions" in second_output


# The calendar's edges, in the bank's time zone (Asia/Almaty, UTC+5): the 1st just after
# midnight (still the last day of the month in UTC), a month's last evening, 1 January,
# 29 February, the middle of a month.
EDGES = [
    "2026-12-01T00:30+05:00",
    "2026-11-30T23:30+05:00",
    "2027-01-01T00:05+05:00",
    "2028-02-29T12:00+05:00",
    "2026-11-18T12:00+05:00",
]


@pytest.mark.parametrize("moment", EDGES)
def test_it_shows_activity_this_month_on_any_day(time_machine, moment):
    time_machine.move_to(moment, tick=False)
    seed()

    month = f"{timezone.localdate():%Y-%m}"
    for username in ("alice", "bob"):
        customer = Customer.objects.get(user__username=username)
        statement = statement_for_month(customer=customer, month=month)
        assert statement.count >= len(TODAY)
        today = [
            row for row in statement.transactions if timezone.localdate(row.posted_at) == timezone.localdate()
        ]
        assert len(today) == len(TODAY)
    assert not Transaction.objects.filter(posted_at__gt=timezone.now()).exists()


def test_a_run_on_a_later_day_adds_that_days_payments_only(time_machine):
    time_machine.move_to("2026-11-30T20:00+05:00", tick=False)
    seed()
    time_machine.move_to("2026-12-01T00:30+05:00", tick=False)

    output = seed()

    assert f"alice: {len(TODAY)} new transactions" in output
    alice = Customer.objects.get(user__username="alice")
    assert statement_for_month(customer=alice, month="2026-12").count == len(TODAY)


def test_it_gives_each_customer_cards_and_transactions_of_their_own():
    seed()

    for username in ("alice", "bob"):
        customer = Customer.objects.get(user__username=username)
        transactions = Transaction.objects.filter(account__customer=customer)
        assert transactions.count() > 0
        assert Card.objects.filter(account__customer=customer).count() >= 1
        # Each row's card belongs to the row's own account.
        assert not transactions.exclude(card__account__customer=customer).exists()


def test_it_includes_transactions_older_than_the_dispute_window():
    seed()

    cutoff = timezone.now() - timedelta(days=120)
    for username in ("alice", "bob"):
        rows = Transaction.objects.filter(account__customer__user__username=username)
        assert rows.filter(posted_at__lt=cutoff).exists()
        assert rows.filter(posted_at__gte=cutoff).exists()
    assert not Transaction.objects.filter(posted_at__gt=timezone.now()).exists()


def test_it_plants_prompt_injections_in_merchant_text():
    seed()

    for username in ("alice", "bob"):
        texts = [
            f"{merchant} {description}".lower()
            for merchant, description in Transaction.objects.filter(
                account__customer__user__username=username
            ).values_list("merchant", "description")
        ]
        assert any("ignore previous instructions" in text for text in texts)
        assert any(phrase in text for text in texts for phrase in INJECTION_PHRASES)


def test_it_stores_money_as_two_decimal_places():
    seed()

    amounts = [t.amount for t in Transaction.objects.all()]
    balances = [a.balance for a in Account.objects.all()]
    for value in amounts + balances:
        assert isinstance(value, Decimal)
        assert value.as_tuple().exponent == -2
    assert all(amount > 0 for amount in amounts)
