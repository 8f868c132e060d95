"""Browser tests: pytest-playwright drives Debian's Chromium against a live ASGI
server (Daphne in a subprocess, on the test database file, offline model).

Two things about Playwright's sync API shape this file:
- It keeps an asyncio loop marked as running in the main thread from the first
  browser test to the end of the session. Async tests (the consumer tests) cannot
  run after that, so browser tests are moved to the end of the run; and Django's
  ORM refuses to run beside a running loop unless DJANGO_ALLOW_ASYNC_UNSAFE is set,
  which is done only once the browser tests start.
- Its own browser download cannot work here, so it launches /usr/bin/chromium
  (installed by ``bin/setup --test``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"Listening on TCP address 127\.0\.0\.1:(\d+)")
SERVER_START_SECONDS = 60
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last (see the module docstring)."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session")
def _django_orm_beside_playwright() -> None:
    # Deliberately not restored: the browser tests run last, and Playwright's
    # loop stays "running" until the session ends (test database teardown included).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], _django_orm_beside_playwright: None
) -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.fail(
            "The browser tests need Debian's Chromium at /usr/bin/chromium: "
            "run bin/setup --test (or apt-get install chromium)."
        )
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Overrides the suite's MD5 hashing: the server process checks passwords with
    the project's own hashers, so the users are made with them too."""


class LiveServer:
    def __init__(self, process: subprocess.Popen[str], port: int, log: list[str]) -> None:
        self.process, self.port, self.log = process, port, log
        self.url = f"http://127.0.0.1:{port}"

    def __call__(self, path: str = "/") -> str:
        return f"{self.url}{path}"


@pytest.fixture(scope="session")
def live_server_asgi(django_db_setup: None, _django_orm_beside_playwright: None) -> Iterator[LiveServer]:
    """Daphne serving config.asgi on 127.0.0.1 (a free port), on the test database."""
    yield from _daphne()


@pytest.fixture
def own_server(
    django_db_setup: None, _django_orm_beside_playwright: None, transactional_db: None
) -> Iterator[LiveServer]:
    """A server of the test's own, for tests that write through Django admin. The
    shared server outlives the flush between tests, and a process caches content
    type ids (ContentType.objects.get_for_model): after a flush they name rows that
    are gone, and admin's history entry fails its foreign key. A real database is
    never flushed under a running server."""
    yield from _daphne()


def _daphne(extra_env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """``extra_env``: settings of the test's own (another model, for one)."""
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
    process = subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "0", "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    log: list[str] = []
    ready = threading.Event()
    port: list[int] = []

    def drain() -> None:  # keep the pipe empty for the whole session
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            match = LISTENING.search(line)
            if match and not ready.is_set():
                port.append(int(match.group(1)))
                ready.set()
        ready.set()

    threading.Thread(target=drain, daemon=True).start()
    if not ready.wait(SERVER_START_SECONDS) or not port:
        process.kill()
        pytest.fail("Daphne did not start:\n" + "".join(log[-40:]))
    server = LiveServer(process, port[0], log)
    yield server
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def server(live_server_asgi: LiveServer, transactional_db: None) -> LiveServer:
    return live_server_asgi


@pytest.fixture
def watch(page: Page, server: LiveServer) -> dict[str, list[str]]:
    """Every request the page makes and every dialog it opens; requests to any
    other host are aborted (and recorded)."""
    seen: dict[str, list[str]] = {"requests": [], "dialogs": [], "foreign": []}
    page.on("request", lambda request: seen["requests"].append(request.url))
    page.on("dialog", lambda dialog: (seen["dialogs"].append(dialog.message), dialog.dismiss()))

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith((server.url, server.url.replace("http", "ws", 1), "data:")):
            route.continue_()
        else:
            seen["foreign"].append(url)
            route.abort()

    page.route("**/*", guard)
    return seen


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


PASSWORD = {"alice": "alice-pw-123", "bob": "bob-pw-123"}
