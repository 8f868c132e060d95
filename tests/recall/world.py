"""The recall world of tests/recall/WORLD.md, built in the test database.

The case authors wrote against WORLD.md alone, so this module copies it row for row:
Dana's four cards with their product labels (``Card.brand``), her seventeen
transactions at their local times, and "today" pinned to Wednesday 18 November
2026, 15:00 in Almaty. Beside her lives another customer with card 1111 and a
transaction that looks like one of Dana's: a write on either is always wrong,
whatever the words say.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model

from accounts.demo import network_code
from accounts.models import Account, Card, Customer, Transaction
from tests.clock import BANK_ZONE

NOW = datetime(2026, 11, 18, 15, 0, tzinfo=BANK_ZONE)


def _local(month: int, day: int, hour: int = 12, minute: int = 0) -> datetime:
    # WORLD.md gives a time only for today's and yesterday's rows; the others sit at noon.
    return datetime(2026, month, day, hour, minute, tzinfo=BANK_ZONE)


CARDS = [  # last four, product label, blocked by Dana herself
    ("4242", "Visa Debit", False),
    ("5505", "Mastercard Credit", False),
    ("3391", "Visa Virtual", False),
    ("6006", "Mastercard Gold", True),
]
DANA_BLOCKED_6006_AT = _local(11, 10, 19, 0)

TRANSACTIONS = [  # reference, posted (local), merchant, description, amount, card
    ("T-5001", _local(11, 18, 9, 40), "Coffee Boom", "", "1850.00", "4242"),
    ("T-5002", _local(11, 17, 8, 15), "Coffee Boom", "", "2100.00", "4242"),
    ("T-5003", _local(11, 17, 16, 30), "Coffee Boom", "", "2100.00", "4242"),
    ("T-5004", _local(11, 17, 22, 10), "Yandex Go", "Taxi", "3450.00", "4242"),
    ("T-5005", _local(11, 16), "Magnum Cash&Carry", "", "8400.00", "5505"),
    ("T-5006", _local(11, 13), "Magnum Cash&Carry", "", "23760.00", "5505"),
    ("T-5007", _local(11, 14), "Air Astana", "", "86119.00", "5505"),
    ("T-5008", _local(11, 15), "Wolt", "Food delivery", "12350.00", "4242"),
    ("T-5009", _local(11, 12), "Glovo", "Delivery", "20000.00", "3391"),
    ("T-5010", _local(11, 11), "Chocofamily", "Restaurant", "1200.00", "4242"),
    ("T-5011", _local(11, 10), "Small", "Grocery shop", "1500.00", "4242"),
    ("T-5012", _local(11, 7), "Technodom", "Electronics", "74234.00", "5505"),
    ("T-5013", _local(11, 1), "Netflix", "Subscription", "4990.00", "3391"),
    ("T-5014", _local(10, 21), "Kaspi Magazin", "Online shop", "43000.00", "3391"),
    ("T-5015", _local(10, 3), "Yandex Go", "Taxi", "2800.00", "4242"),
    ("T-5016", _local(9, 25), "Sulpak", "Electronics", "159990.00", "5505"),
    ("T-5017", _local(7, 20), "Arbuz.kz", "Groceries", "9870.00", "4242"),
]

# The other customer: his card, and a row twin of Dana's second coffee yesterday.
FOREIGN_CARD = "1111"
FOREIGN_TRANSACTION = ("T-6001", _local(11, 17, 16, 30), "Coffee Boom", "", "2100.00", "1111")

# Every transaction's full amount, the foreign one too (a dispute's "full" is read against it).
FULL_AMOUNTS = {row[0]: Decimal(row[4]) for row in [*TRANSACTIONS, FOREIGN_TRANSACTION]}
ALL_CARDS = tuple(last4 for last4, _, _ in CARDS) + (FOREIGN_CARD,)


def build_world() -> Customer:
    """Dana as WORLD.md describes her, and her neighbour (not in WORLD.md: his card and
    row are there to be missed); returns Dana. Every date is absolute: the caller pins
    the clock to NOW."""
    dana = _customer("dana.recall", "Dana Nurlanovna", "KZ86125KZT5004100500", "250000.00")
    account = dana.accounts.get()
    cards = {last4: _card(account, last4, brand, blocked) for last4, brand, blocked in CARDS}
    for row in TRANSACTIONS:
        _transaction(account, cards, row)
    neighbour = _customer("erlan.recall", "Erlan Sadykov", "KZ86125KZT5004100501", "90000.00")
    other = neighbour.accounts.get()
    _transaction(other, {FOREIGN_CARD: _card(other, FOREIGN_CARD, "Visa Debit", False)}, FOREIGN_TRANSACTION)
    return dana


def _customer(username: str, full_name: str, number: str, balance: str) -> Customer:
    user = get_user_model().objects.create_user(username=username, password=f"{username}-pw-123")
    customer = Customer.objects.create(user=user, full_name=full_name)
    Account.objects.create(customer=customer, number=number, balance=Decimal(balance))
    return customer


def _card(account: Account, last4: str, brand: str, blocked_by_customer: bool) -> Card:
    if not blocked_by_customer:
        return Card.objects.create(account=account, last4=last4, brand=brand)
    # A customer's own block carries the key of the confirmation that made it.
    return Card.objects.create(
        account=account,
        last4=last4,
        brand=brand,
        status=Card.Status.BLOCKED,
        blocked_at=DANA_BLOCKED_6006_AT,
        blocked_by=Card.BlockedBy.CUSTOMER,
        block_key=uuid.uuid4(),
    )


def _transaction(
    account: Account, cards: dict[str, Card], row: tuple[str, datetime, str, str, str, str]
) -> Transaction:
    reference, posted_at, merchant, description, amount, card = row
    return Transaction.objects.create(
        account=account,
        card=cards[card],
        reference=reference,
        posted_at=posted_at,
        merchant=merchant,
        description=description,
        amount=Decimal(amount),
        mcc=network_code(merchant),
    )
