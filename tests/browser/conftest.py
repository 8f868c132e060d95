"""Browser tests: pytest-playwright drives Debian's Chromium against a live ASGI
server (Daphne in a subprocess, on the test database file, offline model; under
pytest-xdist each worker has its own server, database and browser). Signing in,
sending and the server itself are in tests/browser/helpers.py.

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, daphne_serving

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
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last (see the module docstring). Under pytest-xdist each worker runs
    its share in this order too: no browser test is in an ``xdist_group``, which would
    move it ahead (--dist loadgroup hands the groups out first)."""
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


@pytest.fixture(scope="session")
def live_server_asgi(django_db_setup: None, _django_orm_beside_playwright: None) -> Iterator[LiveServer]:
    """Daphne serving config.asgi on 127.0.0.1 (a free port), on the test database."""
    yield from daphne_serving()


@pytest.fixture
def own_server(
    django_db_setup: None, _django_orm_beside_playwright: None, transactional_db: None
) -> Iterator[LiveServer]:
    """A server of the test's own, for tests that write through Django admin. The
    shared server outlives the flush between tests, and a process caches content
    type ids (ContentType.objects.get_for_model): after a flush they name rows that
    are gone, and admin's history entry fails its foreign key. A real database is
    never flushed under a running server."""
    yield from daphne_serving()


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
