"""The calendar's edges, on purpose: the month, week and relative-date logic runs at
pinned moments that include the 1st of a month, a month's last evening, 1 January,
29 February and the hour after midnight in the bank's zone while UTC is still on the
previous day — and, with a bank zone west of UTC, the evening when UTC is already on the
next day. Every expectation is computed from the pinned moment, never from the wall clock.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from accounts.models import Transaction
from accounts.money import dates_in
from accounts.selectors import spending_for_period, statement_for_month
from disputes.services import dispute_check, dispute_window_open
from errors import RuleViolation
from llm.offline.months import shift_month
from llm.offline.periods import find_period
from tests.factories import make_customer

pytestmark = pytest.mark.django_db

# (bank zone, local moment): the edges the issue names.
EDGES = [
    ("Asia/Almaty", "2026-12-01T00:30"),  # the 1st; UTC is still 30 November
    ("Asia/Almaty", "2026-11-30T23:30"),  # a month's last evening
    ("Asia/Almaty", "2027-01-01T00:05"),  # 1 January; UTC is still in 2026
    ("Asia/Almaty", "2028-02-29T12:00"),  # a leap day
    ("Asia/Almaty", "2026-11-18T12:00"),  # the middle of a month
    ("America/New_York", "2026-11-30T23:30"),  # UTC is already on 1 December
    ("America/New_York", "2026-12-31T22:00"),  # UTC is already in 2027
]


@pytest.fixture(params=EDGES, ids=[f"{zone}-{moment}" for zone, moment in EDGES])
def today(request, settings, time_machine) -> date:
    zone, moment = request.param
    settings.TIME_ZONE = zone
    time_machine.move_to(datetime.fromisoformat(moment).replace(tzinfo=ZoneInfo(zone)), tick=False)
    local = timezone.localdate()
    assert local == date.fromisoformat(moment[:10])  # the bank's day, not UTC's
    return local


def first_of(day: date) -> date:
    return day.replace(day=1)


def month_before(day: date) -> date:
    return (first_of(day) - timedelta(days=1)).replace(day=1)


def test_relative_words_name_the_banks_days(today):
    said = {m.start: (m.year, m.month, m.day) for m in dates_in("yesterday today позавчера", today=today)}
    yesterday, before = today - timedelta(days=1), today - timedelta(days=2)
    assert list(said.values()) == [
        (yesterday.year, yesterday.month, yesterday.day),
        (today.year, today.month, today.day),
        (before.year, before.month, before.day),
    ]


def test_last_month_and_this_month_are_calendar_months(today):
    last, this = dates_in("last month, this month", today=today)
    assert (last.year, last.month, last.day) == (month_before(today).year, month_before(today).month, None)
    assert (this.year, this.month) == (today.year, today.month)
    assert shift_month(today, -1) == f"{month_before(today):%Y-%m}"
    assert shift_month(today, 0) == f"{today:%Y-%m}"


def test_weeks_and_runs_of_days_end_today(today):
    monday = today - timedelta(days=today.weekday())
    last_week = find_period("how much last week", today)
    assert (last_week.first, last_week.last) == (monday - timedelta(days=7), monday - timedelta(days=1))
    this_week = find_period("this week", today)
    assert (this_week.first, this_week.last) == (monday, today)
    ten = find_period("the last 10 days", today)
    assert (ten.first, ten.last, ten.days) == (today - timedelta(days=9), today, 10)
    yesterday = find_period("вчера", today)
    assert yesterday.first == yesterday.last == today - timedelta(days=1)


def test_a_payment_just_after_local_midnight_belongs_to_the_local_day(today, alice):
    """The first minutes of the bank's day are in this month's statement and spending,
    whatever the date is in UTC."""
    tz = timezone.get_current_timezone()
    midnight = datetime.combine(today, datetime.min.time(), tzinfo=tz)
    account = alice.accounts.get()
    Transaction.objects.create(
        account=account,
        reference="T-9001",
        amount=Decimal("100.00"),
        posted_at=midnight + timedelta(minutes=1),
        merchant="Early Bird",
    )
    Transaction.objects.create(
        account=account,
        reference="T-9002",
        amount=Decimal("200.00"),
        posted_at=midnight - timedelta(minutes=1),
        merchant="Night Owl",
    )

    this_month = statement_for_month(customer=alice, month=f"{today:%Y-%m}")
    assert "T-9001" in {t.reference for t in this_month.transactions}
    today_only = spending_for_period(customer=alice, first=today, last=today)
    assert {t.reference for t in today_only.transactions} == {"T-9001"}
    the_day_before = spending_for_period(
        customer=alice, first=today - timedelta(days=1), last=today - timedelta(days=1)
    )
    assert {t.reference for t in the_day_before.transactions} == {"T-9002"}
    if today.day == 1:
        assert "T-9002" not in {t.reference for t in this_month.transactions}
        last_month = statement_for_month(customer=alice, month=f"{month_before(today):%Y-%m}")
        assert "T-9002" in {t.reference for t in last_month.transactions}


def test_the_dispute_window_closes_after_120_days(today, alice):
    account = alice.accounts.get()
    now = timezone.now()
    inside = Transaction.objects.create(
        account=account,
        reference="T-9003",
        amount=Decimal("100.00"),
        posted_at=now - timedelta(days=120) + timedelta(minutes=1),
        merchant="Inside",
    )
    outside = Transaction.objects.create(
        account=account,
        reference="T-9004",
        amount=Decimal("100.00"),
        posted_at=now - timedelta(days=120) - timedelta(minutes=1),
        merchant="Outside",
    )

    dispute_check(transaction=inside, amount=inside.amount)
    with pytest.raises(RuleViolation) as refused:
        dispute_check(transaction=outside, amount=outside.amount)
    assert refused.value.code == "dispute_window_closed"
    assert dispute_window_open(today - timedelta(days=119))
    assert not dispute_window_open(today - timedelta(days=120))


def test_a_confirm_card_expires_at_its_time_across_midnight(today, alice, time_machine):
    """A card made at the moment expires BANKBOT_PROPOSAL_TTL_SECONDS later, whichever day,
    month or year that falls on."""
    from django.conf import settings

    from bankbot.models import Conversation
    from tests.factories import make_proposal
    from tools.models import Proposal
    from tools.proposals import ProposalExpired, proposal_confirm

    proposal = make_proposal(Conversation.objects.create(customer=alice), card="4242")
    made = timezone.now()
    assert proposal.expires_at == made + timedelta(seconds=settings.BANKBOT_PROPOSAL_TTL_SECONDS)

    time_machine.move_to(proposal.expires_at - timedelta(seconds=1), tick=False)
    assert Proposal.objects.get().expires_at > timezone.now()  # still clickable
    time_machine.move_to(proposal.expires_at, tick=False)
    with pytest.raises(ProposalExpired):
        proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    assert Proposal.objects.get().status == "expired"


def test_the_statement_page_opens_on_the_banks_month(today, client, alice):
    client.force_login(alice.user)
    html = client.get("/statement/").content.decode()
    assert f'value="{today:%Y-%m}"' in html


def test_fixture_rows_are_dated_from_the_pinned_now(today):
    customer = make_customer(
        "erin", "Erin", "KZ86125KZT5004100900", ["4000"], [("T-9100", 1, "500.00", "Yesterday Shop", "")]
    )
    row = customer.accounts.get().transactions.get()
    assert timezone.localdate(row.posted_at) == today - timedelta(days=1)


def test_weekdays_days_ago_and_ordinal_days_are_counted_back_from_the_banks_today(today):
    said = {
        text: dates_in(text, today=today)[0]
        for text in ("last Tuesday", "в прошлую пятницу", "2 days ago", "неделю назад", "on the 21st")
    }

    def day(mention) -> date:
        return date(mention.year, mention.month, mention.day)

    tuesday = day(said["last Tuesday"])
    assert tuesday.weekday() == 1 and 1 <= (today - tuesday).days <= 7
    friday = day(said["в прошлую пятницу"])
    assert friday.weekday() == 4 and 1 <= (today - friday).days <= 7
    assert day(said["2 days ago"]) == today - timedelta(days=2)
    assert day(said["неделю назад"]) == today - timedelta(days=7)
    the_21st = day(said["on the 21st"])  # this month's, or the last month's while still ahead
    assert the_21st.day == 21 and the_21st <= today and (today - the_21st).days < 62


def test_the_day_before_yesterday_is_two_days_back(today):
    (said,) = dates_in("the day before yesterday", today=today)
    assert date(said.year, said.month, said.day) == today - timedelta(days=2)


@pytest.mark.parametrize(
    ("text", "day", "month"),
    [
        ("the third of October", 3, 10),
        ("twenty-first of November", 21, 11),
        ("the thirtieth of June", 30, 6),
        ("третьего октября", 3, 10),
        ("двадцать пятого ноября", 25, 11),
        ("первого декабря", 1, 12),
        ("тридцать первого декабря", 31, 12),
    ],
)
def test_a_day_said_as_an_ordinal_word_is_that_day(text, day, month):
    (said,) = dates_in(f"dispute the payment of {text}", today=date(2026, 12, 31))
    assert (said.day, said.month) == (day, month)


@pytest.mark.parametrize(
    "text",
    [
        "the first payment in October",
        "second October payment",
        "тридцать второго декабря",
        "за третью покупку в октябре",
    ],
)
def test_an_ordinal_that_is_not_a_day_names_no_day(text):
    assert all(m.day is None for m in dates_in(text, today=date(2026, 12, 31)))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("десятого числа", 10),
        ("первого числа", 1),
        ("двадцать пятого числа", 25),
        ("the tenth of the month", 10),
        ("the twenty-first of this month", 21),
        ("the 7th of this month", 7),
        ("on the 1st of the month", 1),
    ],
)
def test_a_day_of_the_month_said_as_an_ordinal_word_is_that_day(text, day, today):
    # «Покупка десятого числа не моя»: this month's, or the last month's while still ahead.
    (said,) = dates_in(f"the payment {text}", today=today)
    on = date(said.year, said.month, said.day)
    assert on.day == day and on <= today and (today - on).days < 62


def test_an_ordinal_day_of_a_named_month_is_that_months_day(today):
    (said,) = dates_in("the charge on the 7th of October", today=today)
    assert (said.day, said.month) == (7, 10)


def test_an_ordinal_word_before_chisla_that_is_not_a_day_names_no_day(today):
    assert dates_in("сорокового числа", today=today) == []
