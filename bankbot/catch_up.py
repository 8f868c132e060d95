"""A chat socket that connects while a turn of its conversation runs — a reload, a
second tab, a reconnect after a drop — catches up: it is sent, on its own, the turn
so far (``bankbot/fragments.py``, ``turns_so_far``), and drops the group's copies of
the fragments that held (each is numbered: bankbot/turn_store.py, which any worker
reads). The rest of the turn comes through the group, once; a turn whose worker is
gone is sent as failed, with Retry — on connecting, or later to a socket that saw it run
(it watches each turn it is sent the fragments of, until the turn ends or its lease
lapses). So are the confirm cards that changed since
the page was rendered (bankbot/card_push.py), and the cards support staff proposed since
(bankbot/staff_proposals.py), and support staff's messages and the hand-over's notes
(bankbot/person_push.py): a socket away then missed their push.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from asgiref.typing import WebSocketDisconnectEvent
from channels.db import database_sync_to_async
from django.utils import translation

from bankbot import direct_dispatch, fragments, outage, turn_progress
from bankbot.card_push import cards_changed_since, page_rendered_at
from bankbot.models import Conversation
from bankbot.person_push import people_since
from bankbot.staff_proposals import staff_cards_since
from bankbot.turn_store import TurnState, turn_store

# How often a socket asks after a turn it watches: a lapsed lease shows within
# LEASE_SECONDS and this.
WATCH_SECONDS = turn_progress.LEASE_SECONDS / 3


class TurnCatchUp(direct_dispatch.DirectDispatch):
    conversation: Conversation
    language: str
    group: str  # the conversation's group, once joined
    caught_up: Mapping[str, int] = MappingProxyType({})  # per turn, the fragments sent on connecting
    watching: Mapping[str, asyncio.Task[None]] = MappingProxyType({})  # per turn, its watch (below)
    still_listening: Callable[[], bool]  # outage.LayerWatchingConsumer's, beside this in the consumer

    async def accept_catching_up(self) -> None:
        """Accept, then (once in the conversation's group) send what a turn running
        meanwhile has sent so far."""
        await self.accept()
        if not self.group:
            return
        frames = await fragments.turns_so_far(self.conversation, self.language)
        self.caught_up = {turn: count for turn, count, _html, _running in frames}
        for turn, _count, html, running in frames:
            await self.send(text_data=html)
            if running:
                self.watch(turn)
        with contextlib.suppress(*outage.DATABASE_ERRORS):  # they show on reload
            since = page_rendered_at(self.scope)
            # Cards staff proposed meanwhile first, then every card's state now.
            staff = await database_sync_to_async(staff_cards_since)(self.conversation, since, self.language)
            cards = await database_sync_to_async(cards_changed_since)(self.conversation, since, self.language)
            people = await database_sync_to_async(people_since)(self.conversation, since, self.language)
            if staff or cards or people:
                await self.send(text_data=staff + cards + people)

    async def dispatch(self, message: dict[str, Any]) -> None:
        turn = message.get("turn")
        if turn is not None:
            self.watch(turn)
            if message.get("seq", 0) < self.caught_up.get(turn, 0):
                return  # a turn's fragment this socket was sent on connecting
        await super().dispatch(message)

    def watch(self, turn: str) -> None:
        """Watch a turn this socket shows until it ends: if its worker dies (its lease
        lapses), the turn is sent as failed, with Retry — never left in progress."""
        if turn not in self.watching:
            self.watching = {**self.watching, turn: asyncio.get_running_loop().create_task(self._watch(turn))}

    async def _watch(self, turn: str) -> None:
        store = turn_store()
        while self.still_listening():
            await asyncio.sleep(WATCH_SECONDS)
            state = await store.state_of(self.conversation.public_id.hex, turn)
            if state is TurnState.ABANDONED and self.still_listening():
                with translation.override(self.language):
                    abandoned = fragments.render_abandoned(turn=turn, conversation=self.conversation)
                await self.send(text_data=abandoned)
            if state is not TurnState.RUNNING:
                return

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        for task in self.watching.values():
            task.cancel()
        await super().websocket_disconnect(message)
