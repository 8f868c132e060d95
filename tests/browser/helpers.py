"""What the browser tests share besides fixtures: the demo passwords, signing in and
sending through the page, and Daphne serving the test database."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.daphne import LiveServer, daphne_start

PASSWORD = {"alice": "alice-pw-123", "bob": "bob-pw-123"}

__all__ = ["PASSWORD", "LiveServer", "daphne_serving", "send", "sign_in"]


def daphne_serving(extra_env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """Daphne on the test database, offline model, for as long as the generator is
    open (a fixture yields from it). ``extra_env``: settings of the test's own
    (another model, for one)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DEBUG": "0",
        "BANKBOT_MODEL": "offline",
        "PYTHONUNBUFFERED": "1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        **(extra_env or {}),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # The server must use the test database, whose name pytest-django has set by now.
    if database["ENGINE"] == "django.db.backends.sqlite3":
        env["DATABASE_URL"] = f"sqlite:///{database['NAME']}"
    elif "postgresql" in database["ENGINE"]:
        env["DATABASE_URL"] = (
            f"postgres://{quote(database['USER'])}:{quote(database['PASSWORD'])}"
            f"@{database['HOST']}:{database['PORT']}/{database['NAME']}"
        )
    else:
        pytest.fail(f"The browser tests do not know how to hand {database['ENGINE']} to Daphne.")
    server = daphne_start(env)
    yield server
    server.stop()


def sign_in(page: Page, server: LiveServer, username: str, password: str) -> None:
    page.goto(server("/login/"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#chat")).to_be_visible()
    expect(page.locator("#connection")).to_have_text("Connected")


def send(page: Page, text: str) -> None:
    box = page.locator("#composer-text")  # labelled "Your message" (or its translation)
    box.fill(text)
    box.press("Enter")


class DroppableChatSocket:
    """A page's chat socket that a test can cut as a network drop would (an abnormal
    closure, the server's side closed too) and let back; while it is away every try to
    reconnect is refused, so the htmx ws extension keeps trying by itself."""

    def __init__(self, page: Page) -> None:
        self.sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []
        self._back = threading.Event()
        page.route_web_socket(re.compile(r"/ws/chat/"), self._through)

    def _through(self, route: WebSocketRoute) -> None:
        if self.sockets and not self._back.is_set():
            route.close(code=1006)  # still away: the extension tries again later
            return
        self.sockets.append((route, route.connect_to_server()))

    def drop(self) -> None:
        page_side, server_side = self.sockets[-1]
        server_side.close()
        page_side.close(code=1006)

    def come_back(self) -> None:
        self._back.set()
