"""An answer in progress, seen from another worker: worker A runs a slow turn, and a
page served by worker B shows it in progress, a socket to B is sent the turn so far
and then the rest, once — the same for the sender's socket back, after a drop, on B.
The turn is kept in Redis (bankbot/turn_store_redis.py), the fragments cross through
the channel layer; no sticky sessions. The model writes word by word and holds its
last sentence until the test lets it go on: the test waits on what it has written."""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator

import pytest
from django.utils.html import escape

from bankbot import catch_up, turn_progress
from bankbot.models import Conversation
from llm.offline.served import serve_in_thread
from tests.chat.helpers import frame, session_cookie
from tests.daphne import LiveServer
from tests.paced_model import CAP_SECONDS, PacedServer
from tests.scale.helpers import ChatSocket, make_scale_customer

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

SENTENCES = ["Hello there. ", "Your card is fine. ", "Anything else?"]
SO_FAR = "Hello there. Your card is fine. "
WHOLE = "Hello there. Your card is fine. Anything else?"


@pytest.fixture
def model() -> Iterator[PacedServer]:
    server = PacedServer(SENTENCES)
    serve_in_thread(server)
    yield server
    server.go_on.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def worker_env(model: PacedServer) -> dict[str, str]:
    return {
        "BANKBOT_MODEL": "paced-model",
        "OPENAI_BASE_URL": f"{model.url}/v1",
        "BANKBOT_MODEL_RETRIES": "0",
        "BANKBOT_MODEL_TIMEOUT": str(int(CAP_SECONDS)),
    }


def streamed_text(messages: list[str], turn: str) -> str:
    """The text appended to the turn's bubble, in order, over every message."""
    return "".join(
        text
        for message in messages
        for text in re.findall(
            rf'<span hx-swap-oob="beforeend:#turn-{turn}-text">(.*?)</span>', message, re.S
        )
    )


def page(worker: LiveServer, conversation: Conversation, cookie: str) -> str:
    conn = http.client.HTTPConnection(*worker.address, timeout=CAP_SECONDS)
    conn.request(
        "GET", f"/c/{conversation.public_id}/", headers={"Host": f"127.0.0.1:{worker.port}", "Cookie": cookie}
    )
    response = conn.getresponse()
    assert response.status == 200
    return response.read().decode()


def test_a_page_and_sockets_on_another_worker_see_the_turn_in_progress_and_get_the_rest(
    two_live_workers, model
):
    worker_a, worker_b = two_live_workers
    customer = make_scale_customer(0)
    conversation = Conversation.objects.create(customer=customer)
    cookie = session_cookie(customer.user)
    path = f"/ws/chat/{conversation.public_id}/?lang=en"

    sender = ChatSocket(worker_a, path, cookie)
    sender.send(frame(text="Hello", client_message_id="c-1"))
    opening = sender.until('id="turn-')[-1]
    turn = re.search(r'id="turn-([0-9a-f]{12})', opening).group(1)
    assert model.held.wait(CAP_SECONDS)
    sender.until("fine.")  # the text so far has gone to the group, so it is kept

    # A page served by worker B shows the turn in progress, under its own id.
    html = page(worker_b, conversation, cookie)
    assert f'id="turn-{turn}"' in html and 'data-state="streaming"' in html

    # A socket to B (the page's own, or a second tab) is sent the turn so far...
    late = ChatSocket(worker_b, path, cookie)
    caught_up = late.receive()
    assert caught_up.lstrip().startswith(
        f'<article class="msg msg--assistant" id="turn-{turn}" hx-swap-oob="true">'
    )
    assert streamed_text([caught_up], turn) == escape(SO_FAR)
    # ... and so is the sender's, back after a drop, on B.
    sender.close()
    back = ChatSocket(worker_b, path, cookie)
    caught_up_again = back.receive()
    assert streamed_text([caught_up_again], turn) == escape(SO_FAR)

    model.go_on.set()
    for socket_on_b, first in ((late, caught_up), (back, caught_up_again)):
        rest = socket_on_b.until('data-state="done"')
        assert streamed_text([first, *rest], turn) == escape(WHOLE), "nothing twice, nothing lost"
        socket_on_b.close()
    assert 'data-state="streaming"' not in page(worker_b, conversation, cookie)


def test_a_turn_whose_worker_dies_shows_failed_with_retry_on_the_other_worker(two_live_workers, model):
    """Worker A is killed mid-turn: its lease lapses on Redis's clock, nothing is left
    in progress — the open tab on B, a page and a socket back on B show the turn failed,
    with Retry, and the retry is answered by B."""
    worker_a, worker_b = two_live_workers
    customer = make_scale_customer(0)
    conversation = Conversation.objects.create(customer=customer)
    cookie = session_cookie(customer.user)
    path = f"/ws/chat/{conversation.public_id}/?lang=en"
    # Long enough for the lease to lapse and the watch to see it.
    wait = turn_progress.LEASE_SECONDS + catch_up.WATCH_SECONDS + CAP_SECONDS

    sender = ChatSocket(worker_a, path, cookie)
    sender.send(frame(text="Hello", client_message_id="c-1"))
    turn = re.search(r'id="turn-([0-9a-f]{12})', sender.until('id="turn-')[-1]).group(1)
    assert model.held.wait(CAP_SECONDS)
    sender.until("fine.")
    watching = ChatSocket(worker_b, path, cookie, timeout=wait)
    assert streamed_text([watching.receive()], turn) == escape(SO_FAR)

    worker_a.process.kill()  # mid-turn: no end, no more renewals
    worker_a.process.wait(timeout=CAP_SECONDS)
    failed = watching.until("Your message is saved")[-1]
    assert f'id="turn-{turn}-bubble"' in failed and "Retry" in failed

    html = page(worker_b, conversation, cookie)
    assert f'id="turn-{turn}"' in html and 'data-state="streaming"' not in html
    assert "Your message is saved" in html
    back = ChatSocket(worker_b, path, cookie)
    assert f'id="turn-{turn}-bubble"' in back.receive()

    model.go_on.set()
    back.send(frame(action="retry", turn=turn))
    answer = back.until('data-state="done"')
    retried = re.search(r'id="turn-([0-9a-f]{12})', answer[0]).group(1)
    assert retried != turn and streamed_text(answer, retried) == escape(WHOLE)
    for socket_on_b in (watching, back):
        socket_on_b.close()
