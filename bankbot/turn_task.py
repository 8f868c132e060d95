"""A customer's turn as a background task of the chat socket: the agent runs on the
worker's turn pool (bankbot/turns.py), each event becomes a fragment
(bankbot/fragments.py), and the fragments leave in order, the answer's text a few
words at a time (bankbot/streaming.py), through the socket's ``send``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from django.db import close_old_connections
from django.utils import translation

from bankbot import agent, turn_progress
from bankbot.fragments import TURN_BROKE_OFF, render_event, render_failure, render_text
from bankbot.models import Conversation, Message
from bankbot.streaming import Clock, TurnStream
from bankbot.turn_store import TurnHandle, TurnStore, turn_store
from bankbot.turns import StopSignal, TurnStopped, turn_pool, turn_slots

log = logging.getLogger(__name__)


class TurnSend(Protocol):
    """How a turn's fragment leaves: its html, the turn and the fragment's number
    (bankbot/turn_store.py), so a socket that was sent it already can drop it."""

    def __call__(self, html: str, *, turn: str, seq: int) -> Awaitable[None]: ...


# Background turns, kept referenced until they finish (asyncio holds tasks weakly).
_turns: set[asyncio.Task[None]] = set()


def run_turn_in_thread(
    *,
    user: Any,
    conversation: Conversation,
    message: Message,
    on_event: Callable[[agent.TurnEvent], None],
    language: str,
    stop: StopSignal | None = None,
) -> None:
    """The agent's synchronous turn, on a thread of the turn pool (bankbot/turns.py)."""
    try:
        with translation.override(language):
            agent.run_turn(
                user=user, conversation=conversation, customer_message=message, on_event=on_event, stop=stop
            )
    except TurnStopped:
        log.info("chat: a turn stopped before its next model call (the worker is stopping)")
    finally:
        close_old_connections()


def start_turn(
    *,
    turn: str,
    user: Any,
    conversation: Conversation,
    message: Message,
    language: str,
    send: TurnSend,
    clock: Clock,
    answered: Callable[[], None],
    ended: Callable[[], Awaitable[None]],
) -> None:
    """Run the turn in the background, in the slot the caller took (``turn_slots().take()``)
    and sent the turn's opening fragment for; the slot is free again when the turn's
    thread is. ``answered`` is called on the loop just before the answer's last
    fragment goes (the customer may write again as soon as they can see it);
    ``ended`` is awaited once every fragment of the turn has gone. Every fragment is
    kept while the turn runs (bankbot/turn_store.py), for a page or socket that comes
    in meanwhile, on any worker; its lease there is renewed until it ends."""
    store = turn_store()
    kept = TurnHandle(turn=turn, conversation=conversation.public_id.hex, message=message.pk)

    async def send_kept(html: str) -> None:
        await send(html, turn=turn, seq=await store.record(kept, html))

    stream = TurnStream(
        send_kept, lambda text: render_text(text, turn=turn), clock=clock, before_last=answered
    )

    def on_event(event: agent.TurnEvent) -> None:
        # On the turn's worker thread: text goes to the stream as it is (rendered
        # once per frame); other events are rendered here. Neither waits.
        if event.kind == agent.TurnEvent.Kind.TOKEN:
            stream.text(event.text)
            return
        html = render_event(event, turn=turn, conversation=conversation)
        if html:
            stream.fragment(
                html,
                last=event.kind
                in (agent.TurnEvent.Kind.FINAL, agent.TurnEvent.Kind.ERROR, agent.TurnEvent.Kind.HELD),
            )

    stop = StopSignal()
    slots = turn_slots()

    async def run() -> None:
        lease: asyncio.Task[None] | None = None
        try:
            try:
                # On the turn pool, not the loop's default executor: waiting on the
                # model holds a thread, and a worker holds as many as it has slots.
                try:
                    await store.begin(kept)
                    lease = asyncio.get_running_loop().create_task(keep_alive(store, kept))
                    future = turn_pool().submit(
                        run_turn_in_thread,
                        user=user,
                        conversation=conversation,
                        message=message,
                        on_event=on_event,
                        language=language,
                        stop=stop,
                    )
                except BaseException:
                    slots.give_back()
                    raise
                future.add_done_callback(lambda _: slots.give_back())
                try:
                    await asyncio.wrap_future(future)
                except asyncio.CancelledError:
                    stop.set()  # the worker is stopping: end before the next model call
                    raise
            finally:
                await stream.close()  # every fragment of the turn has been sent
        except Exception:  # a bug, not a model failure: the page must not hang
            log.exception("chat turn failed")
            answered()
            with translation.override(language):
                await send_kept(
                    render_failure(
                        turn=turn,
                        conversation=conversation,
                        text=str(TURN_BROKE_OFF),
                    )
                )
        finally:
            if lease is not None:
                lease.cancel()
            await store.end(kept)
            await ended()

    task = asyncio.get_running_loop().create_task(run())
    _turns.add(task)
    task.add_done_callback(_turns.discard)


async def keep_alive(store: TurnStore, kept: TurnHandle) -> None:
    """Renew the turn's lease while it runs, a third of it at a time (it may wait on
    the model, sending nothing): should its worker die, the lease lapses."""
    while True:
        await asyncio.sleep(turn_progress.LEASE_SECONDS / 3)
        await store.renew(kept)
