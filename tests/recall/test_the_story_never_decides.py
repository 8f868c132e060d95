"""Regressions found while widening the grammar on the recall set: each of these once
granted an action the customer did not ask for. The story around a request may narrow
what it names; it never picks another object, card or amount (G7)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from accounts.models import Transaction
from tests.recall.world import NOW
from tools.binding import CANDIDATE_LIMIT
from tools.mandate import mandate_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        # "coffee" is a category (the bank's merchant category code): the later of yesterday's
        # two coffees, never "the last one yesterday", which is the taxi.
        ("dispute the later coffee yesterday", {"T-5003"}),
        ("dispute the later coffee yesterday, the afternoon one", {"T-5003"}),
        ("dispute the first taxi yesterday", {"T-5004"}),
        ("dispute the second taxi yesterday", set()),
        # «магазином» in a reason clause is not a second object (Kaspi Magazin).
        ("оформите возврат по сулпаку, заказ отменен магазином", {"T-5016"}),
        # "не виртуальная" excludes the virtual card; it never selects it.
        ("заблокируйте мою основную визу, ту что не виртуальная", set()),
        # A day in the story is not the card that paid that day (4242 paid yesterday); the
        # card the story names, which "it" points back at, is.
        (
            "I bought something on a weird website yesterday with my online card and now I'm "
            "getting emails about payments I didn't make. Block it.",
            {"3391"},
        ),
        (
            "I bought something on a weird website yesterday and now I'm getting emails about "
            "payments I didn't make. Block it.",
            set(),
        ),
        # A card described in the story is not the card asked about.
        ("Block my Visa. The virtual one still works.", set()),
        # An amount in the story is a part: the whole is never granted instead.
        ("chargeback on T-5006 please, they overcharged me by 3,760", set()),
        # The story's "morning one" is the coffee she vouches for, not the one asked about.
        ("Оспорьте, пожалуйста, вчерашний кофе бум в 16:30. Утренний в 8:15 - мой", {"T-5003"}),
        ("Dispute yesterday's Coffee Boom at 16:30. The morning one is fine.", {"T-5003"}),
        # An amount ruled out in the story ("no pizza for 4 500") may be the part meant: the
        # whole order is never granted instead (found by the held-out set).
        (
            "Заказывала в Вольте в воскресенье, привезли не всё — не было пиццы за 4 500. "
            "Верните, пожалуйста, за неё.",
            set(),
        ),
        ("Wolt on Sunday came without the dessert - not the 3,000 I paid for it. Refund it.", set()),
        # "… and tell me my balance" names no object.
        ("dispute the Glovo order and tell me my balance", {"T-5009"}),
    ],
)
def test_the_story_around_a_request_never_picks_another_object(recall_world, text, allowed):
    granted = {g.target for g in mandate_for(customer=recall_world, text=text).grants}
    assert granted == allowed


def test_a_second_object_listed_with_and_is_a_second_request(recall_world):
    mandate = mandate_for(customer=recall_world, text="оспорьте технодом и сулпак")
    assert {g.target for g in mandate.grants} == {"T-5012", "T-5016"}


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        # "last week" is the calendar week before (9–15 Nov) to some, the last seven days to
        # others: both Magnum payments (13 and 16 Nov) fit, so nothing is granted. It was once
        # read as "the last Magnum payment" (found by a held-out set).
        ("dispute the magnum payment from last week", set()),
        ("оспорьте магнум на прошлой неделе", set()),
        ("dispute the Wolt order from the weekend", {"T-5008"}),
        ("оспорьте доставку на выходных", {"T-5008"}),  # Wolt: the weekend's one delivery
        ("dispute this week's Magnum payment", {"T-5005"}),
        ("dispute the Air Astana flight from last weekend", {"T-5007"}),
    ],
)
def test_a_week_said_is_every_day_it_may_mean(recall_world, text, allowed):
    granted = {g.target for g in mandate_for(customer=recall_world, text=text).grants}
    assert granted == allowed


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        # "I haven't been to Magnum" tells why; it does not rule T-5006 out (it once did).
        ("Please dispute T-5005 and T-5006, I haven't been to Magnum this month", {"T-5005", "T-5006"}),
        # … while a customer who says which one they do not mean still rules it out of the
        # request (so T-5006 is never granted; both Magnum payments fitting, it is buttons).
        ("dispute the Magnum payment, I don't mean T-5006", set()),
        ("dispute T-5005, not T-5006", {"T-5005"}),
        # A second object named by its day takes the first one's merchant.
        ("dispute the Magnum purchase on 13 November and the one on 16 November", {"T-5006", "T-5005"}),
        ("оспорьте магнум за пятницу и за понедельник тоже", {"T-5006", "T-5005"}),
        ("Dispute the Chocofamily bill and the Small payment from the 10th.", {"T-5010", "T-5011"}),
        # A figure after "and" is the first object's, never a second object.
        ("dispute the Chocofamily bill and the 8,400 one", set()),
    ],
)
def test_a_second_object_and_a_story_are_read_apart(recall_world, text, allowed):
    granted = {g.target for g in mandate_for(customer=recall_world, text=text).grants}
    assert granted == allowed


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        # Only a month and a position: counted among that month's payments.
        ("оспорьте самую первую покупку в ноябре", {"T-5013"}),
        ("dispute the first purchase on my virtual card this month", {"T-5013"}),
        ("dispute the last purchase on my virtual card", {"T-5009"}),
    ],
)
def test_a_position_said_of_a_month_or_a_card_counts_their_payments(recall_world, text, allowed):
    granted = {g.target for g in mandate_for(customer=recall_world, text=text).grants}
    assert granted == allowed


def test_a_position_is_never_counted_among_more_payments_than_were_read(recall_world):
    account = recall_world.accounts.get()
    Transaction.objects.bulk_create(
        Transaction(
            account=account,
            reference=f"T-7{n:04d}",
            amount=Decimal("100.00"),
            posted_at=NOW - timedelta(minutes=5 * (n + 1)),
            merchant="Vending",
            mcc="5814",
        )
        for n in range(CANDIDATE_LIMIT)
    )
    # The first payment of November is T-5013 (1 Nov), but the newest rows read are today's.
    assert not mandate_for(customer=recall_world, text="dispute the first purchase in November").grants
