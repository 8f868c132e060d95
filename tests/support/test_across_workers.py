"""Over Redis, across workers: a staff member's reply, written by another process (the
worker that served staff's post), reaches the customer's socket held by this one, and the
socket's own language is the one it is shown in."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

from tests.scale.helpers import database_url
from tests.support.helpers import queued

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
HANG = 30

# The other worker: the same settings on the suite's pinned clock (tests/settings.py), this
# run's database; staff take the conversation and write, through the services.
STAFF_ON_ANOTHER_WORKER = """
import django, sys
django.setup()
from django.contrib.auth import get_user_model
from support.services import handoff_take, staff_message
staff = get_user_model().objects.get(username=sys.argv[2])
handoff_take(staff=staff, pk=int(sys.argv[1]))
staff_message(staff=staff, pk=int(sys.argv[1]), text="Hello from worker two <b>")
"""


@pytest.mark.parametrize(("lang", "name"), [("en", "Aigerim from support"), ("ru", "Aigerim из поддержки")])
async def test_a_staff_reply_from_another_worker_reaches_the_customers_socket(
    connect, alice, alice_conversation, aigerim, lang, name
):
    assert isinstance(get_channel_layer(), RedisChannelLayer)
    handoff = await database_sync_to_async(queued)(alice_conversation)
    tab, connected = await connect(alice_conversation, user=alice.user, lang=lang)
    assert connected
    url = await database_sync_to_async(database_url)()
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        STAFF_ON_ANOTHER_WORKER,
        str(handoff.pk),
        aigerim.username,
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": url,
        },
        stderr=subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(worker.communicate(), HANG)
    assert worker.returncode == 0, stderr.decode()

    joined = await tab.receive_from(timeout=10)
    reply = await tab.receive_from(timeout=10)
    assert "Aigerim" in joined and "person-note" in joined
    assert name in reply and "Hello from worker two &lt;b&gt;" in reply
    await tab.disconnect()
