"""A worker holds many conversations while the model thinks (issue 17).

The model here is the offline one served over loopback HTTP (llm/offline/served.py),
held like a slow real model. No test measures time: each checks how many calls
the model held *at once*, or that a turn got a slot, or what was stored.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from bankbot import turn_task, turns
from bankbot.chat import message_customer_add, message_to_retry
from bankbot.models import Conversation
from llm.config import ModelConfig
from llm.offline.served import ModelServer, serve_in_thread
from tests.chat.helpers import frame, receive_until
from tests.factories import make_customer

pytestmark = pytest.mark.django_db(transaction=True)

# A test that goes wrong gives up after this long instead of hanging the suite.
CAP_SECONDS = 20


class HeldServer(ModelServer):
    """Holds every call until ``needed`` calls are waiting at once (a barrier), or
    until ``release`` is set. A broken barrier (fewer came) answers an error."""

    def __init__(self, needed: int = 0) -> None:
        super().__init__()
        self.barrier = threading.Barrier(needed, timeout=CAP_SECONDS) if needed else None
        self.release = threading.Event()
        self.arrived = threading.Semaphore(0)

    def hold(self, path: str) -> None:
        self.arrived.release()
        if self.barrier is not None:
            self.barrier.wait()
        else:
            self.release.wait(CAP_SECONDS)


@pytest.fixture
def model_server(settings):
    servers = []

    def start(**kwargs) -> HeldServer:
        server = HeldServer(**kwargs)
        serve_in_thread(server)
        servers.append(server)
        settings.BANKBOT_MODEL_CONFIG = ModelConfig(
            model="held-model", base_url=f"{server.url}/v1", api_key="k", timeout=CAP_SECONDS, max_retries=0
        )
        return server

    yield start
    for server in servers:
        server.release.set()
        if server.barrier is not None:
            server.barrier.abort()
        server.shutdown()
        server.server_close()


async def slots_freed() -> None:
    """Wait until every turn's thread has ended (or the cap passes), then check."""
    for _ in range(CAP_SECONDS * 20):
        if turns.turn_slots().in_flight == 0:
            break
        await asyncio.sleep(0.05)
    assert turns.turn_slots().in_flight == 0


def customers(count: int) -> list[Conversation]:
    found = []
    for index in range(count):
        customer = make_customer(
            f"c{index:03d}", f"Customer {index}", f"KZ86125KZT50041{index:05d}", [f"{1000 + index:04d}"], []
        )
        found.append(Conversation.objects.create(customer=customer))
    return found


async def test_thirty_turns_wait_on_the_model_at_once(connect, model_server, bound):
    bound(200)
    server = model_server(needed=30)  # every call waits until all thirty are waiting
    conversations = await database_sync_to_async(customers)(30)
    sockets = []
    for conversation in conversations:
        communicator, connected = await connect(conversation, user=conversation.customer.user)
        assert connected
        sockets.append(communicator)
    for index, communicator in enumerate(sockets):
        await communicator.send_to(text_data=frame(text="Hello", client_message_id=f"m{index}"))
    endings = await asyncio.gather(
        *(receive_until(c, 'data-state="done"', timeout=CAP_SECONDS) for c in sockets)
    )
    assert server.peak == 30  # thirty customers' model calls were in flight together
    assert all("Retry" not in ending[-1] for ending in endings)
    for communicator in sockets:
        await communicator.disconnect()


async def test_a_customer_beyond_the_bound_is_told_to_wait(connect, model_server, bound):
    bound(1)
    server = model_server()
    first, second = await database_sync_to_async(customers)(2)
    a, _ = await connect(first, user=first.customer.user)
    b, _ = await connect(second, user=second.customer.user)
    await a.send_to(text_data=frame(text="Hello", client_message_id="a"))
    await asyncio.to_thread(server.arrived.acquire, timeout=CAP_SECONDS)  # A holds the slot
    await b.send_to(text_data=frame(text="Hello", client_message_id="b"))
    told = await receive_until(b, "answering many customers", timeout=CAP_SECONDS)
    assert "Retry" in told[-1]
    stored = await database_sync_to_async(message_to_retry)(conversation=second)
    assert stored is not None and stored.text == "Hello"  # saved, for the Retry
    server.release.set()
    await receive_until(a, 'data-state="done"', timeout=CAP_SECONDS)
    await a.disconnect()
    await b.disconnect()


async def test_a_turn_whose_customer_leaves_frees_its_slot(connect, model_server, bound):
    bound(1)
    server = model_server()
    first, second = await database_sync_to_async(customers)(2)
    a, _ = await connect(first, user=first.customer.user)
    await a.send_to(text_data=frame(text="Hello", client_message_id="a"))
    await asyncio.to_thread(server.arrived.acquire, timeout=CAP_SECONDS)
    await a.disconnect()  # the customer leaves while the model thinks
    server.release.set()
    await slots_freed()  # the answer is stored; then the slot is free
    answer = await database_sync_to_async(first.messages.filter(role="assistant").last)()
    assert answer is not None  # stored for the customer's next visit
    b, _ = await connect(second, user=second.customer.user)
    await b.send_to(text_data=frame(text="Hello", client_message_id="b"))
    ending = await receive_until(b, 'data-state="done"', timeout=CAP_SECONDS)
    assert "answering many customers" not in "".join(ending)
    await b.disconnect()


async def test_stopping_the_worker_mid_turn_loses_no_stored_message(connect, model_server, bound):
    bound(5)
    server = model_server()
    (conversation,) = await database_sync_to_async(customers)(1)
    a, _ = await connect(conversation, user=conversation.customer.user)
    await a.send_to(text_data=frame(text="Show my statement for 2026-11", client_message_id="a"))
    await asyncio.to_thread(server.arrived.acquire, timeout=CAP_SECONDS)
    for task in list(turn_task._turns):  # what the event loop does when the worker stops
        task.cancel()
    server.release.set()  # the model's answer arrives after the stop
    await slots_freed()
    stored = await database_sync_to_async(list)(conversation.messages.values_list("role", flat=True))
    assert stored[0] == "customer"
    retry = await database_sync_to_async(message_to_retry)(conversation=conversation)
    assert retry is not None and retry.text.startswith("Show my statement")
    assert server.served == 1  # stopped before a second model call
    await a.disconnect()


def test_a_stopped_turn_ends_before_calling_the_model(alice_conversation):
    from bankbot.agent import run_turn
    from llm.client import make_client

    calls = []
    client = make_client(ModelConfig(model="offline"))
    client.chat.completions.create = lambda **kw: calls.append(kw)  # never reached
    message, _ = message_customer_add(conversation=alice_conversation, text="Hello")
    stop = turns.StopSignal()
    stop.set()
    with pytest.raises(turns.TurnStopped):
        run_turn(
            user=alice_conversation.customer.user,
            conversation=alice_conversation,
            customer_message=message,
            client=client,
            stop=stop,
        )
    assert not calls
    assert list(alice_conversation.messages.values_list("role", flat=True)) == ["customer"]
