"""Sign-in lockouts count per client, also behind a load balancer."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from config.client_ip import client_ip


def request(xff: str | None = None):
    extra = {"HTTP_X_FORWARDED_FOR": xff} if xff is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", **extra)


def test_it_ignores_the_header_without_trusted_proxies(settings):
    settings.BANKBOT_PROXY_COUNT = 0
    assert client_ip(request("203.0.113.9")) == "127.0.0.1"


@pytest.mark.parametrize(
    ("xff", "expected"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("6.6.6.6, 203.0.113.9", "203.0.113.9"),  # a forged left entry proves nothing
        ("", "127.0.0.1"),
        (None, "127.0.0.1"),
    ],
)
def test_it_takes_the_address_our_proxy_appended(settings, xff, expected):
    settings.BANKBOT_PROXY_COUNT = 1
    assert client_ip(request(xff)) == expected


def test_two_proxies_skip_the_inner_one(settings):
    settings.BANKBOT_PROXY_COUNT = 2
    assert client_ip(request("6.6.6.6, 203.0.113.9, 10.0.0.2")) == "203.0.113.9"
    assert client_ip(request("10.0.0.2")) == "127.0.0.1"


@pytest.mark.django_db
def test_lockout_behind_a_proxy_is_per_client(client, alice, settings):
    settings.BANKBOT_PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            "/login/",
            {"username": "mallory", "password": "x"},
            HTTP_X_FORWARDED_FOR="198.51.100.7",
            REMOTE_ADDR="127.0.0.1",
        )
    response = client.post(
        "/login/",
        {"username": "alice", "password": "alice-pw-123"},
        HTTP_X_FORWARDED_FOR="203.0.113.9",
        REMOTE_ADDR="127.0.0.1",
    )
    assert response.status_code == 302  # alice, from elsewhere, is not locked out
