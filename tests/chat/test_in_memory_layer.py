"""One worker's channel layer (no REDIS_URL): channels' in-memory layer, walked for
expired messages and memberships once a second instead of before every message
(config/channel_layer.py). What expires still goes, at most a second later."""

from __future__ import annotations

import pytest
from channels.layers import InMemoryChannelLayer as ChannelsLayer

from config import channel_layer
from config.channel_layer import InMemoryChannelLayer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(channel_layer.time, "monotonic", fake)
    return fake


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []
    real = ChannelsLayer._clean_expired

    def counted(self: ChannelsLayer) -> None:
        seen.append(1)
        real(self)

    monkeypatch.setattr(ChannelsLayer, "_clean_expired", counted)
    return seen


async def test_it_walks_for_expired_entries_once_a_second_not_before_every_message(clock, walks):
    layer = InMemoryChannelLayer()
    await layer.group_add("chat.a", "specific.x!1")
    for _ in range(50):
        await layer.group_send("chat.a", {"type": "chat.fragment", "html": "<p>"})
    assert len(walks) == 1
    clock.now += channel_layer.CLEAN_EVERY
    await layer.group_send("chat.a", {"type": "chat.fragment", "html": "<p>"})
    assert len(walks) == 2


async def test_an_expired_message_still_takes_its_channel_out_of_its_groups(clock):
    layer = InMemoryChannelLayer(expiry=-1)  # every message has expired once sent
    await layer.group_add("chat.a", "specific.x!1")
    await layer.group_send("chat.a", {"type": "chat.fragment", "html": "<p>"})  # walks
    assert "specific.x!1" in layer.groups["chat.a"]
    clock.now += channel_layer.CLEAN_EVERY
    await layer.group_send("chat.a", {"type": "chat.fragment", "html": "<p>"})
    assert "specific.x!1" not in layer.groups.get("chat.a", {})


def test_a_worker_without_redis_uses_it(settings):
    from config.settings import CHANNEL_LAYERS, REDIS_URL

    if REDIS_URL:
        pytest.skip("this run's settings use Redis")
    assert CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.InMemoryChannelLayer"


@pytest.mark.django_db(transaction=True)
async def test_the_chat_dispatches_without_a_hop_to_close_connections(
    connect, alice, alice_conversation, monkeypatch
):
    """Channels closes old database connections on its thread-sensitive executor
    before every handler; the chat's database steps close their own (they are
    database_sync_to_async calls), so it skips that hop: for a turn's fragments and
    for a customer's messages alike, which still arrive and are answered."""
    import channels.consumer
    from channels.layers import get_channel_layer

    from bankbot.fragments import group_name
    from tests.chat.helpers import frame, receive_until

    hops: list[int] = []
    real = channels.consumer.aclose_old_connections

    async def counted() -> None:
        hops.append(1)
        await real()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    communicator, _ = await connect(alice_conversation, user=alice.user)
    await get_channel_layer().group_send(
        group_name(alice_conversation), {"type": "chat.fragment", "html": "<p>one</p>"}
    )
    assert await communicator.receive_from(timeout=5) == "<p>one</p>"
    await communicator.send_to(text_data=frame(text="Hello", client_message_id="h-1"))
    await receive_until(communicator, 'data-state="done"')
    assert hops == []
    await communicator.disconnect()
