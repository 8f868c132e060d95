"""The answer appears a sentence at a time, as the model writes it, each sentence
checked before it is shown (issue 23, point 4; G10). The model is a loopback server
that writes word by word and holds its last sentence until the test lets it go on:
the test waits on what the server has written, never on a clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from bankbot.models import Message
from llm.offline.served import serve_in_thread
from tests.browser.helpers import PASSWORD, LiveServer, daphne_serving, send, sign_in
from tests.paced_model import CAP_SECONDS, PacedServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SENTENCES = ["Hello, Alice. ", "For your refund call +7 700 123 45 67 today. ", "Anything else?"]
SHOWN = "Hello, Alice. For your refund call [phone number removed] today. Anything else?"


@pytest.fixture
def paced_model() -> Iterator[PacedServer]:
    server = PacedServer(SENTENCES)
    serve_in_thread(server)
    yield server
    server.go_on.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def paced_server(
    paced_model: PacedServer,
    django_db_setup: None,
    _django_orm_beside_playwright: None,
    transactional_db: None,
) -> Iterator[LiveServer]:
    """Daphne answering with the paced model, through the real openai SDK."""
    yield from daphne_serving(
        {
            "BANKBOT_MODEL": "paced-model",
            "OPENAI_BASE_URL": f"{paced_model.url}/v1",
            "BANKBOT_MODEL_RETRIES": "0",
            "BANKBOT_MODEL_TIMEOUT": str(int(CAP_SECONDS)),
        }
    )


def test_the_first_sentences_are_shown_before_the_model_has_written_the_last(
    page: Page, paced_server: LiveServer, paced_model: PacedServer, alice
) -> None:
    sign_in(page, paced_server, "alice", PASSWORD["alice"])
    send(page, "Hello")
    streaming = page.locator('.msg--assistant [data-state="streaming"] .bubble__text')
    # Shown while the model is held before its last sentence — the planted phone
    # number already replaced by the check's note.
    expect(streaming).to_have_text("Hello, Alice. For your refund call [phone number removed] today.")
    assert paced_model.held.is_set() and not paced_model.last_written.is_set()
    assert "700" not in streaming.inner_text()

    paced_model.go_on.set()
    done = page.locator('.msg--assistant [data-state="done"]')
    expect(done.locator(".bubble__text")).to_have_text(SHOWN)
    expect(done.locator(".bubble__flag")).to_contain_text("phone number")
    # What was shown is what was stored: a reload shows the same answer.
    assert Message.objects.filter(role="assistant").last().text == SHOWN
    page.reload()
    expect(page.locator('.msg--assistant [data-state="done"] .bubble__text').last).to_have_text(SHOWN)
