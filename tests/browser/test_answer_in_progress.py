"""An answer being written is not lost to a page that comes in meanwhile (customer
issue, point 1): a reload, a second tab, or a socket back after a network drop shows
the answer in progress, with what the model has written so far, and receives the
rest. The model writes word by word and holds its last sentence until the test lets
it go on: the tests wait on what it has written, never on a clock."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from bankbot.models import Message
from llm.offline.served import serve_in_thread
from tests.browser.helpers import PASSWORD, DroppableChatSocket, LiveServer, daphne_serving, send, sign_in
from tests.browser.test_streaming import SENTENCES, SHOWN
from tests.paced_model import CAP_SECONDS, PacedServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SO_FAR = "Hello, Alice. For your refund call [phone number removed] today."
# The answer's check says what it removed in the page's language.
SAYS = {
    "en": {
        "connected": "Connected",
        "typing": "The assistant is typing",
        "removed": "[phone number removed]",
    },
    "ru": {"connected": "На связи", "typing": "Ассистент печатает", "removed": "[номер телефона удалён]"},
}


def said(text: str, lang: str) -> str:
    return text.replace("[phone number removed]", SAYS[lang]["removed"])


@pytest.fixture
def model() -> Iterator[PacedServer]:
    """The model, held before its last sentence until the test lets it go on."""
    server = PacedServer(SENTENCES)
    serve_in_thread(server)
    yield server
    server.go_on.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def chat_server(
    model: PacedServer, django_db_setup: None, _django_orm_beside_playwright: None, transactional_db: None
) -> Iterator[LiveServer]:
    yield from daphne_serving(
        {
            "BANKBOT_MODEL": "paced-model",
            "OPENAI_BASE_URL": f"{model.url}/v1",
            "BANKBOT_MODEL_RETRIES": "0",
            "BANKBOT_MODEL_TIMEOUT": str(int(CAP_SECONDS)),
        }
    )


def open_chat(page: Page, server: LiveServer, lang: str) -> None:
    sign_in(page, server, "alice", PASSWORD["alice"])
    if lang != "en":
        page.get_by_role("button", name=lang.upper()).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])


def in_progress(page: Page, lang: str) -> None:
    """One answer, in progress, showing what the model has written so far."""
    turn = page.locator('article[id^="turn-"]')
    expect(turn).to_have_count(1)
    expect(turn.locator('[data-state="streaming"] .bubble__text')).to_have_text(said(SO_FAR, lang))
    expect(turn.locator(".typing")).to_have_attribute("aria-label", SAYS[lang]["typing"])


def answered(page: Page, lang: str = "en") -> None:
    """The whole answer, once, and nothing in progress."""
    turn = page.locator('article[id^="turn-"]')
    expect(turn).to_have_count(1)
    expect(turn.locator('[data-state="done"] .bubble__text')).to_have_text(said(SHOWN, lang))
    expect(page.locator('[data-state="streaming"]')).to_have_count(0)
    expect(page.locator(".msg--customer")).to_have_count(1)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_reload_mid_answer_shows_it_in_progress_and_then_the_answer(
    page: Page, chat_server: LiveServer, model: PacedServer, alice, lang: str
) -> None:
    open_chat(page, chat_server, lang)
    send(page, "Hello")
    in_progress(page, lang)
    assert not model.last_written.is_set()

    page.reload()
    expect(page.locator("#connection")).to_have_text(SAYS[lang]["connected"])
    expect(page.locator(".msg--customer")).to_have_count(1)
    in_progress(page, lang)

    model.go_on.set()
    answered(page, lang)


def test_a_second_tab_opened_mid_answer_receives_the_rest(
    page: Page, chat_server: LiveServer, model: PacedServer, alice
) -> None:
    open_chat(page, chat_server, "en")
    send(page, "Hello")
    in_progress(page, "en")

    second = page.context.new_page()
    second.goto(page.url)
    expect(second.locator("#connection")).to_have_text("Connected")
    in_progress(second, "en")

    model.go_on.set()
    answered(page)
    answered(second)


def test_a_socket_back_after_a_network_drop_receives_what_it_missed(
    page: Page, chat_server: LiveServer, model: PacedServer, alice
) -> None:
    """The drop: the page's socket is cut (an abnormal closure, as when the network
    goes) and the server's side closed; the htmx ws extension reconnects by itself."""
    socket = DroppableChatSocket(page)
    open_chat(page, chat_server, "en")
    send(page, "Hello")
    in_progress(page, "en")

    socket.drop()
    model.go_on.set()  # the answer ends while the page is away
    _stored_answer()
    expect(page.locator('[data-state="streaming"]')).to_have_count(1)  # it missed the end
    socket.come_back()
    expect(page.locator("#connection")).to_have_text("Connected")
    answered(page)
    assert len(socket.sockets) == 2  # it came back on a new socket


def _stored_answer() -> None:
    deadline = time.monotonic() + CAP_SECONDS
    while not Message.objects.filter(role=Message.Role.ASSISTANT, text=SHOWN).exists():
        assert time.monotonic() < deadline, "the answer was never stored"
        time.sleep(0.05)
