"""Which pages may open the chat's WebSocket: this site's own, compared as browsers
compare origins — scheme, host and port — never by host name alone.

Nothing but the Origin header (no CSRF token, no SameSite cookie) stops a page on
another site, or on another port of this host, from opening a socket that carries
the customer's session. A socket is accepted when its Origin is the socket's own
origin — its Host (one of ALLOWED_HOSTS), with https for wss or a request the
trusted proxy marks secure, else http — or one of CSRF_TRUSTED_ORIGINS: exactly
what Django's CSRF check accepts for a form post.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

Origin = tuple[str, str, int]  # scheme, host, port
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(value: str) -> Origin | None:
    """'https://bank.example' → ('https', 'bank.example', 443); None for anything that
    is not a plain http(s) origin ("null", a path, credentials, a bad port)."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (
        scheme not in DEFAULT_PORTS
        or not parts.hostname
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _own_origin(scope: dict[str, Any]) -> Origin | None:
    domain, port = split_domain_port(_header(scope, b"host") or "")
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:  # as Django's own host check does
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    scheme = "https" if _is_secure(scope) else "http"
    return scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme]


def _is_secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy_header = settings.SECURE_PROXY_SSL_HEADER  # as request.is_secure() reads it
    if proxy_header:
        name, secure_value = proxy_header
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        return (_header(scope, header) or "").split(",")[0].strip() == secure_value
    return False


def _trusted(origin: Origin) -> bool:
    scheme, host, port = origin
    netloc = host if port == DEFAULT_PORTS[scheme] else f"{host}:{port}"
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in entry:  # "https://*.bank.example": its subdomains, as Django's CSRF check reads it
            pattern = urlsplit(entry)
            if pattern.scheme == scheme and is_same_domain(netloc, pattern.netloc.lstrip("*")):
                return True
        elif parse_origin(entry) == origin:
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = parse_origin(_header(scope, b"origin") or "")
    if origin is None:
        return False
    return origin == _own_origin(scope) or _trusted(origin)


class SameOriginOnly:
    """ASGI middleware for WebSocket routes: refuses the handshake (403) unless
    ``origin_allowed``. Settings are read per socket, so tests can change them."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:  # an ASGI scope, as given
        if scope["type"] == "websocket" and origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
