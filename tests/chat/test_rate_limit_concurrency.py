"""The chat's rate limit holds when a customer's messages arrive at the same moment:
40 simultaneous form posts, or frames on 40 sockets, store at most the limit.

Unmarked, so they run on SQLite (bin/test) and again on PostgreSQL (.ci/run's second
pass); each thread has its own database connection, as each worker would.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection

from bankbot.chat import RATE_LIMIT_MESSAGES
from bankbot.models import Conversation, Message
from tests.chat.helpers import ORIGIN, frame, session_cookie
from tests.threads import run_at_once

pytestmark = pytest.mark.django_db(transaction=True)

SENDERS = 40
WORKERS = 5  # ASGI workers the sockets are spread over


def stored(customer: Any) -> int:
    return Message.objects.filter(conversation__customer=customer, role="customer").count()


def test_it_stores_at_most_the_limit_from_simultaneous_form_posts(
    browser_for, alice, bob, alice_conversation, bob_conversation
):
    # Two customers at once: each gets the whole limit, neither more.
    senders = [
        (browser_for(who), conversation)
        for who, conversation in [(alice, alice_conversation), (bob, bob_conversation)]
        for _ in range(SENDERS)
    ]

    def send(n: int) -> int:
        client, conversation = senders[n]
        response = client.post(
            "/messages/",
            {
                "conversation": str(conversation.public_id),
                "text": f"Hello {n}",
                "client_message_id": f"form-{n}",
            },
        )
        return response.status_code

    results, errors = run_at_once([lambda n=n: send(n) for n in range(len(senders))])

    assert errors == []
    # Every post answered, none with a 500: stored (302), or refused with the text kept (429).
    assert set(results) <= {302, 429} and results.count(302) == 2 * RATE_LIMIT_MESSAGES
    assert (stored(alice), stored(bob)) == (RATE_LIMIT_MESSAGES, RATE_LIMIT_MESSAGES)


async def test_it_stores_at_most_the_limit_from_simultaneous_sockets(alice):
    from config.asgi import application

    # Within one Daphne process Channels runs every socket's database work on one
    # thread; here the sockets are spread over WORKERS threads, as over workers.
    workers = [ThreadPoolExecutor(max_workers=1) for _ in range(WORKERS)]

    def on_worker(n: int) -> Any:
        async def app(scope: dict, receive: Any, send: Any) -> None:
            async with ThreadSensitiveContext(executor=workers[n % WORKERS]):
                await application(scope, receive, send)

        return app

    cookie = await database_sync_to_async(session_cookie)(alice.user)
    headers = [(b"host", b"127.0.0.1"), (b"origin", ORIGIN.encode()), (b"cookie", cookie.encode())]
    # A conversation each, so that each socket hears only its own turn.
    conversations = await database_sync_to_async(
        lambda: [Conversation.objects.create(customer=alice) for _ in range(SENDERS)]
    )()
    sockets = [
        WebsocketCommunicator(on_worker(n), f"/ws/chat/{conversation.public_id}/", headers=headers)
        for n, conversation in enumerate(conversations)
    ]
    for socket in sockets:
        connected, _ = await socket.connect(timeout=10)
        assert connected

    async def send(n: int, socket: WebsocketCommunicator) -> str:
        await socket.send_to(text_data=frame(text=f"Hello {n}", client_message_id=f"ws-{n}"))
        while True:  # the turn's answer, or the notice that refused the message
            fragment = await socket.receive_from(timeout=30)
            if 'data-state="done"' in fragment or 'class="notice notice-error"' in fragment:
                return fragment

    answers = await asyncio.gather(*(send(n, s) for n, s in enumerate(sockets)))

    refused = [a for a in answers if "in the last minute" in a]
    assert len(refused) == SENDERS - RATE_LIMIT_MESSAGES
    assert await database_sync_to_async(stored)(alice) == RATE_LIMIT_MESSAGES
    for socket in sockets:
        await socket.disconnect()
    for worker in workers:
        worker.submit(lambda: connection.close()).result()  # the worker thread's own connection
        worker.shutdown()
