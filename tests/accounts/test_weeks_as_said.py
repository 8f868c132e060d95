"""Weeks as people say them: a run of days, and both days people may mean."""

from __future__ import annotations

from datetime import date

import pytest

from accounts.money import weeks_in


def days(text: str, today: date) -> list[str]:
    return [d.isoformat() for _, _, run in weeks_in(text, today=today) for d in run]


def test_last_week_is_the_calendar_week_before_and_the_last_seven_days_across_a_month():
    wednesday = date(2026, 12, 2)
    assert days("the Magnum one last week", wednesday) == [
        "2026-11-23",
        "2026-11-24",
        "2026-11-25",
        "2026-11-26",
        "2026-11-27",
        "2026-11-28",
        "2026-11-29",
        "2026-11-30",
        "2026-12-01",
    ]
    assert days("на прошлой неделе", wednesday) == days("last week", wednesday)


def test_this_week_runs_from_monday_to_today():
    assert days("this week", date(2026, 12, 2)) == ["2026-11-30", "2026-12-01", "2026-12-02"]


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        (date(2026, 11, 18), ["2026-11-14", "2026-11-15"]),  # a Wednesday: the weekend before
        (date(2026, 11, 21), ["2026-11-21"]),  # Saturday: the weekend under way, so far
        (date(2026, 11, 22), ["2026-11-21", "2026-11-22"]),
    ],
)
def test_the_weekend_is_the_latest_one_begun(today, expected):
    assert days("the weekend", today) == expected
    assert days("на выходных", today) == expected


def test_last_weekend_may_be_the_one_before_too():
    assert days("last weekend", date(2026, 11, 18)) == [
        "2026-11-07",
        "2026-11-08",
        "2026-11-14",
        "2026-11-15",
    ]


@pytest.mark.parametrize("text", ["a week ago", "неделю назад", "the week", "weekly fee"])
def test_a_week_counted_back_or_alone_is_no_run(text):
    assert days(text, date(2026, 11, 18)) == []


@pytest.mark.parametrize(
    "said",
    [
        "the Tuesday last week",
        "Tuesday of last week",
        "last week on Tuesday",
        "last week's Tuesday",
        "во вторник на прошлой неделе",
        "на прошлой неделе во вторник",
        "вторник на прошлой неделе",
    ],
)
def test_a_weekday_said_with_last_week_is_that_day_of_the_week_before(said):
    # Wednesday 18 November: "Tuesday last week" is the 10th, not yesterday (the 17th), and
    # not the whole week either.
    assert days(said, date(2026, 11, 18)) == ["2026-11-10"]


def test_a_weekday_alone_beside_last_week_elsewhere_is_not_joined():
    # "last week" and a weekday in different phrases stay what each says.
    assert days("last week I paid, and on Tuesday again", date(2026, 11, 18))[0] == "2026-11-09"


@pytest.mark.parametrize(
    ("said", "first", "last"),
    [
        ("ещё летом", "2026-06-01", "2026-08-31"),
        ("летний заказ", "2026-06-01", "2026-08-31"),
        ("in the summer", "2026-06-01", "2026-08-31"),
        ("last winter", "2025-12-01", "2026-02-28"),
        ("осенью", "2026-09-01", "2026-11-18"),  # the season under way: up to today
        ("весной", "2026-03-01", "2026-05-31"),
    ],
)
def test_a_season_is_its_latest_three_months_begun(said, first, last):
    run = days(said, date(2026, 11, 18))
    assert (run[0], run[-1]) == (first, last)


@pytest.mark.parametrize("said", ["the fall of the price", "a winter jacket", "spring cleaning"])
def test_an_english_season_word_without_in_or_last_is_no_time(said):
    assert days(said, date(2026, 11, 18)) == []
