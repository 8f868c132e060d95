"""A chat socket that connects while a turn of its conversation runs — a reload, a
second tab, a reconnect after a drop — catches up: it is sent, on its own, the turn
so far (``bankbot/fragments.py``, ``turns_so_far``), and drops the group's copies of
the fragments that held (each is numbered: bankbot/turn_progress.py). The rest of
the turn comes through the group, once. So are the confirm cards that changed since
the page was rendered (bankbot/card_push.py), and support staff's messages and the
hand-over's notes since then (bankbot/person_push.py): a socket away then missed their push.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from channels.db import database_sync_to_async

from bankbot import direct_dispatch, fragments, outage
from bankbot.card_push import cards_changed_since, page_rendered_at
from bankbot.models import Conversation
from bankbot.person_push import people_since


class TurnCatchUp(direct_dispatch.DirectDispatch):
    conversation: Conversation
    language: str
    group: str  # the conversation's group, once joined
    caught_up: Mapping[str, int] = MappingProxyType({})  # per turn, the fragments sent on connecting

    async def accept_catching_up(self) -> None:
        """Accept, then (once in the conversation's group) send what a turn running
        meanwhile has sent so far."""
        await self.accept()
        if not self.group:
            return
        frames = fragments.turns_so_far(self.conversation, self.language)
        self.caught_up = {turn: count for turn, count, _html in frames}
        for _turn, _count, html in frames:
            await self.send(text_data=html)
        with contextlib.suppress(*outage.DATABASE_ERRORS):  # they show on reload
            cards = await database_sync_to_async(cards_changed_since)(
                self.conversation, page_rendered_at(self.scope), self.language
            )
            if cards:
                await self.send(text_data=cards)
            people = await database_sync_to_async(people_since)(
                self.conversation, page_rendered_at(self.scope), self.language
            )
            if people:
                await self.send(text_data=people)

    async def dispatch(self, message: dict[str, Any]) -> None:
        turn = message.get("turn")
        if turn is not None and message.get("seq", 0) < self.caught_up.get(turn, 0):
            return  # a turn's fragment this socket was sent on connecting
        await super().dispatch(message)
