"""The client's address, for sign-in lockouts (django-axes' AXES_CLIENT_IP_CALLABLE)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """Behind BANKBOT_PROXY_COUNT trusted proxies, each of which appends the address
    it saw to X-Forwarded-For, the client is the n-th entry from the right; entries
    further left were written by the client and prove nothing. With no proxies
    the header is ignored."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.BANKBOT_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    return entries[-proxies] if len(entries) >= proxies else remote
