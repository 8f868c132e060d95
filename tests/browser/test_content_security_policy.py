"""In Chromium, the Content-Security-Policy lets the chat page open its own WebSocket
and no other connection: connect-src 'self' covers ws: to the same host and port."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import PASSWORD, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Opens a socket to `url` from the page; says whether the page's policy refused it.
OPEN_SOCKET = """url => new Promise(resolve => {
  document.addEventListener("securitypolicyviolation",
                            event => resolve("refused: " + event.violatedDirective), {once: true});
  try {
    const socket = new WebSocket(url);
    socket.onopen = () => { socket.close(); resolve("opened"); };
    socket.onerror = () => setTimeout(() => resolve("failed"), 500);
  } catch (error) {
    setTimeout(() => resolve("threw " + error.name), 500);
  }
})"""


def test_the_page_connects_to_its_own_origin_and_nowhere_else(page: Page, server, alice):
    sign_in(page, server, "alice", PASSWORD["alice"])  # its own socket: "Connected"
    own = server.url.replace("http", "ws", 1) + "/ws/chat/00000000-0000-0000-0000-000000000000/"
    assert not page.evaluate(OPEN_SOCKET, own).startswith("refused")
    for elsewhere in ("ws://127.0.0.1:9/ws/", "wss://elsewhere.example/ws/"):
        assert page.evaluate(OPEN_SOCKET, elsewhere).startswith("refused: connect-src")
