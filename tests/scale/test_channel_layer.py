"""The channel layer across workers (channels-redis), and Redis failing.

A chat fragment sent by the worker that runs a turn must reach the socket held
by another worker; a Redis that is down or hung must be a quick, typed error
the chat can report, never a send that waits forever.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import redis.exceptions
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

import config

ROOT = Path(__file__).resolve().parents[2]
# A guard against a hang in the test itself, far above any timeout in settings.
HANG = 30


def settings_with(monkeypatch: pytest.MonkeyPatch, **env: str):
    """config/settings.py executed afresh with this environment."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    path = Path(config.__file__).with_name("settings.py")
    spec = importlib.util.spec_from_file_location("bankbot_settings_scale_probe", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def layer_from(settings, **override) -> RedisChannelLayer:
    config = settings.CHANNEL_LAYERS["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    hosts = [{**host, **override} for host in config["CONFIG"]["hosts"]]
    return RedisChannelLayer(**{**config["CONFIG"], "hosts": hosts})


@pytest.fixture
def refused_redis() -> str:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    return f"redis://127.0.0.1:{port}/0"


def test_settings_give_redis_finite_timeouts(monkeypatch):
    settings = settings_with(monkeypatch, REDIS_URL="redis://127.0.0.1:6379/0")

    [host] = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    assert 0 < host["socket_connect_timeout"] <= 5
    # Above channels-redis's 5 s blocking receive, so an idle socket is not an error.
    assert 5 < host["socket_timeout"] <= 15


async def test_a_hung_redis_is_a_timeout_error_not_a_hang(monkeypatch, hung_redis):
    settings = settings_with(monkeypatch, REDIS_URL=hung_redis)
    # The settings' shape, with a shorter read timeout so the test stays quick.
    layer = layer_from(settings, socket_timeout=0.5)

    with pytest.raises(redis.exceptions.TimeoutError):
        await asyncio.wait_for(layer.group_send("chat-x", {"type": "chat.fragment"}), HANG)


async def test_a_redis_that_is_down_is_a_connection_error(monkeypatch, refused_redis):
    layer = layer_from(settings_with(monkeypatch, REDIS_URL=refused_redis))

    with pytest.raises(redis.exceptions.ConnectionError):
        await asyncio.wait_for(layer.group_send("chat-x", {"type": "chat.fragment"}), HANG)
    with pytest.raises(redis.exceptions.ConnectionError):
        await asyncio.wait_for(layer.group_add("chat-x", "specific.abc!def"), HANG)


# The other worker runs the app's settings as the test run has them (tests/settings.py), on
# the suite's pinned clock: channels-redis stamps group membership with the time, and a
# worker on the wall clock would find this run's members expired and drop the fragment.
TEST_SETTINGS = "tests.settings"

SEND_FROM_ANOTHER_WORKER = """
import django, sys
django.setup()
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
async_to_sync(get_channel_layer().group_send)(sys.argv[1], {"type": "chat.fragment",
                                                           "html": "<p>from " + sys.argv[2] + "</p>"})
"""


@pytest.mark.redis
async def test_a_fragment_sent_by_one_worker_reaches_a_socket_held_by_another():
    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)
    group = f"conversation-scale-{os.getpid()}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        sender = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            SEND_FROM_ANOTHER_WORKER,
            group,
            "worker-2",
            cwd=ROOT,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": TEST_SETTINGS, "PYTHONPATH": str(ROOT)},
            stderr=subprocess.PIPE,
        )
        _, stderr = await asyncio.wait_for(sender.communicate(), HANG)
        assert sender.returncode == 0, stderr.decode()

        message = await asyncio.wait_for(layer.receive(channel), HANG)
    finally:
        await layer.group_discard(group, channel)

    assert message == {"type": "chat.fragment", "html": "<p>from worker-2</p>"}


FLOOD_FROM_ANOTHER_WORKER = """
import asyncio, django, json, sys
django.setup()
from channels.layers import get_channel_layer
groups, per_group = json.loads(sys.argv[1]), int(sys.argv[2])
async def main():
    layer = get_channel_layer()
    for n in range(per_group):  # turns streaming side by side, fragment after fragment
        for group in groups:
            await layer.group_send(group, {"type": "chat.fragment", "html": f"{group} {n}"})
asyncio.run(main())
"""


@pytest.mark.redis
async def test_a_worker_holding_many_sockets_gets_every_fragment_of_their_turns():
    """25 sockets on one worker, each streaming a 40-fragment turn at once, sent by
    another worker before this one reads any: nothing may be dropped (channels-redis
    queues all of one process's sockets under one key, capped by ``capacity``)."""
    layer = get_channel_layer()
    groups = [f"conversation-flood-{os.getpid()}-{n}" for n in range(25)]
    channels = [await layer.new_channel() for _ in groups]
    for group, channel in zip(groups, channels, strict=True):
        await layer.group_add(group, channel)
    try:
        sender = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            FLOOD_FROM_ANOTHER_WORKER,
            json.dumps(groups),
            "40",
            cwd=ROOT,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": TEST_SETTINGS, "PYTHONPATH": str(ROOT)},
            stderr=subprocess.PIPE,
        )
        _, stderr = await asyncio.wait_for(sender.communicate(), HANG)
        assert sender.returncode == 0, stderr.decode()

        received = {channel: 0 for channel in channels}
        for channel in channels:
            while received[channel] < 40:
                await asyncio.wait_for(layer.receive(channel), 10)
                received[channel] += 1
    finally:
        for group, channel in zip(groups, channels, strict=True):
            await layer.group_discard(group, channel)

    assert set(received.values()) == {40}
