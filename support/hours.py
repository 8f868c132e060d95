"""Staffed hours (``BANKBOT_SUPPORT_HOURS``, "09:00-18:00" in the site's time zone, every
day): whether a person is in now, and if not, when they are next."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.conf import settings
from django.utils import timezone


def _hours() -> tuple[time, time]:
    start, end = str(settings.BANKBOT_SUPPORT_HOURS).split("-", 1)
    return time.fromisoformat(start.strip()), time.fromisoformat(end.strip())


def next_opening(now: datetime | None = None) -> datetime | None:
    """None while staff are in; else when they are next in (local time)."""
    local = timezone.localtime(now or timezone.now())
    start, end = _hours()
    if start <= local.time() < end:
        return None
    day = local.date() if local.time() < start else local.date() + timedelta(days=1)
    return datetime.combine(day, start, tzinfo=local.tzinfo)
