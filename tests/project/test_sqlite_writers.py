"""On SQLite a worker's writers take turns on a lock of the process (bankbot/sqlite/base.py)
instead of sleeping in SQLite's busy handler: a transaction holds it from BEGIN to COMMIT
or ROLLBACK, a write in autocommit for its one statement; reads never take it. What is
checked here is who holds the lock when, not how long anything takes."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from bankbot.models import Conversation, Message
from bankbot.sqlite import base as sqlite_base

pytestmark = pytest.mark.django_db(transaction=True)


class RecordingLock:
    """The writer lock, saying when it was taken and given back."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[str] = []
        self.waiting = 0  # acquire calls so far, taken or still waiting

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        self.waiting += 1
        taken = self.lock.acquire(blocking, timeout)
        self.events.append("take")
        return taken

    def release(self) -> None:
        self.events.append("give")
        self.lock.release()

    def locked(self) -> bool:
        return self.lock.locked()


@pytest.fixture
def writer(monkeypatch: pytest.MonkeyPatch) -> RecordingLock:
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        pytest.skip("the writer lock is the SQLite file backend's")
    from django.db import connections

    assert isinstance(connections["default"], sqlite_base.DatabaseWrapper)
    recording = RecordingLock()
    monkeypatch.setitem(sqlite_base._writers, str(connection.settings_dict["NAME"]), recording)
    return recording


def test_a_transaction_holds_the_lock_from_begin_to_commit(writer, alice_conversation):
    writer.events.clear()
    with transaction.atomic():
        assert writer.locked()
        Message.objects.create(conversation=alice_conversation, role="customer", text="a")
        Message.objects.create(conversation=alice_conversation, role="customer", text="b")
        assert writer.events == ["take"]  # once, for the whole transaction
    assert writer.events == ["take", "give"] and not writer.locked()


def test_a_rolled_back_transaction_gives_the_lock_back(writer, alice_conversation):
    writer.events.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        Message.objects.create(conversation=alice_conversation, role="customer", text="a")
        raise RuntimeError("refused")
    assert writer.events == ["take", "give"] and not writer.locked()
    assert not alice_conversation.messages.exists()


def test_a_write_in_autocommit_holds_it_for_its_statement_and_a_read_not_at_all(
        writer, alice_conversation):
    writer.events.clear()
    list(Conversation.objects.all())
    assert writer.events == []
    Conversation.objects.filter(pk=alice_conversation.pk).update(title="t")
    assert writer.events == ["take", "give"] and not writer.locked()


def test_a_second_writer_waits_for_the_first_transaction_to_end(writer, alice_conversation):
    writer.events.clear()
    writer.waiting = 0
    order: list[str] = []
    inside = threading.Event()
    go_on = threading.Event()

    def first() -> None:
        with transaction.atomic():
            Message.objects.create(conversation=alice_conversation, role="customer", text="1")
            inside.set()
            go_on.wait(10)
            order.append("first commits")
        connection.close()

    def second() -> None:
        inside.wait(10)
        try:
            Message.objects.create(conversation=alice_conversation, role="customer", text="2")
            order.append("second wrote")
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    inside.wait(10)
    # The second writer is held at the lock (not in SQLite) while the first is open.
    for _ in range(3000):  # until the second writer is at the lock (bounded)
        if writer.waiting >= 2:
            break
        threading.Event().wait(0.01)
    assert writer.events == ["take"] and order == []
    go_on.set()
    for thread in threads:
        thread.join(30)
    assert order == ["first commits", "second wrote"]
    assert list(alice_conversation.messages.values_list("text", flat=True)) == ["1", "2"]
    assert not writer.locked()


def test_closing_a_connection_in_a_transaction_gives_the_lock_back(writer: Any,
                                                                  alice_conversation):
    done = threading.Event()

    def abandon() -> None:
        transaction.set_autocommit(False)
        Message.objects.create(conversation=alice_conversation, role="customer", text="x")
        transaction.rollback()
        transaction.set_autocommit(True)
        connection.close()
        done.set()

    thread = threading.Thread(target=abandon)
    thread.start()
    thread.join(30)
    assert done.is_set() and not writer.locked()
