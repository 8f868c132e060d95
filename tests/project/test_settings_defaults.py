"""Safe defaults: a checkout with no environment runs with DEBUG off."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured


def test_it_turns_debug_off_by_default(load_settings):
    assert load_settings(DEBUG=None).DEBUG is False


def test_it_turns_debug_on_only_when_asked(load_settings):
    assert load_settings(DEBUG="1").DEBUG is True


def test_it_refuses_an_ambiguous_debug_value(load_settings):
    with pytest.raises(ImproperlyConfigured):
        load_settings(DEBUG="maybe")


def test_it_refuses_the_demo_secret_key_when_a_real_one_is_required(load_settings):
    with pytest.raises(ImproperlyConfigured):
        load_settings(SECRET_KEY=None, BANKBOT_REQUIRE_SECRET_KEY="1")


def test_it_keeps_idempotency_records_for_at_least_a_day(load_settings):
    assert load_settings(BANKBOT_IDEMPOTENCY_TTL_HOURS="1").BANKBOT_IDEMPOTENCY_TTL_HOURS == 24
