"""Safe defaults: a checkout with no environment runs with DEBUG off."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.project.helpers import SETTINGS_FILE


def test_it_turns_debug_off_by_default(load_settings):
    assert load_settings(DEBUG=None).DEBUG is False


def test_it_turns_debug_on_only_when_asked(load_settings):
    assert load_settings(DEBUG="1").DEBUG is True


def test_it_refuses_an_ambiguous_debug_value(load_settings):
    with pytest.raises(ImproperlyConfigured):
        load_settings(DEBUG="maybe")


def test_it_refuses_the_demo_secret_key_when_a_real_one_is_required(load_settings):
    with pytest.raises(ImproperlyConfigured):
        load_settings(SECRET_KEY=None, DEBUG="1", BANKBOT_REQUIRE_SECRET_KEY="1")


def test_it_refuses_the_demo_secret_key_with_debug_off(load_settings):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        load_settings(SECRET_KEY=None, DEBUG=None)
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        load_settings(SECRET_KEY=None, DEBUG="0")


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("", "SECRET_KEY must be set"),  # set but empty: it started, then every sign-in was a 500
        ("x", "too weak"),
        ("k3y-" * 12, "too weak"),  # 48 characters
        ("ab" * 40, "too weak"),  # long, but two different characters
        ("django-insecure-" + "q7Xv2Lm9Rt8Zp1Wn5Bk2Hs9Jd4Fy6Cc3Ee0Gg", "too weak"),  # startproject's
    ],
)
def test_it_refuses_an_empty_short_or_low_entropy_key_with_debug_off(load_settings, key, why):
    # Django's own deploy check's rule: 50 characters or more, 5 or more different ones.
    with pytest.raises(ImproperlyConfigured, match=why):
        load_settings(SECRET_KEY=key, DEBUG="0")
    with pytest.raises(ImproperlyConfigured, match=why):
        load_settings(SECRET_KEY=key, DEBUG="1", BANKBOT_REQUIRE_SECRET_KEY="1")


def test_it_runs_the_local_demo_on_the_demo_key(load_settings):
    assert load_settings(SECRET_KEY=None, DEBUG="1").DEBUG is True
    # bin/demo is that local demo: it turns DEBUG on unless told otherwise.
    assert "export DEBUG=${DEBUG:-1}" in (SETTINGS_FILE.parents[1] / "bin" / "demo").read_text()


def test_it_starts_with_debug_off_on_a_real_key(load_settings):
    settings = load_settings(SECRET_KEY="k" * 20 + "-real-deployment-key-" + "q" * 20, DEBUG=None)
    assert settings.DEBUG is False


def test_https_is_off_until_asked_for(load_settings):
    settings = load_settings(SECURE_SSL_REDIRECT=None, SECURE_HSTS_SECONDS=None)
    assert settings.SECURE_SSL_REDIRECT is False and settings.SECURE_HSTS_SECONDS == 0
    settings = load_settings(
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
    )
    assert settings.SECURE_SSL_REDIRECT is True and settings.SECURE_HSTS_SECONDS == 31536000
    assert settings.SECURE_HSTS_INCLUDE_SUBDOMAINS is True and settings.SECURE_HSTS_PRELOAD is True


def test_behind_trusted_proxies_it_reads_their_scheme(load_settings):
    assert getattr(load_settings(BANKBOT_PROXY_COUNT=None), "SECURE_PROXY_SSL_HEADER", None) is None
    assert load_settings(BANKBOT_PROXY_COUNT="1").SECURE_PROXY_SSL_HEADER == (
        "HTTP_X_FORWARDED_PROTO",
        "https",
    )


def test_it_keeps_idempotency_records_for_at_least_a_day(load_settings):
    assert load_settings(BANKBOT_IDEMPOTENCY_TTL_HOURS="1").BANKBOT_IDEMPOTENCY_TTL_HOURS == 24
