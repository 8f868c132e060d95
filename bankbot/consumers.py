"""The chat WebSocket: thin. It moves frames in and HTML fragments out.

One socket per open conversation page, at ``ws/chat/<conversation public_id>/``.
A frame is what the htmx ``ws`` extension sends for a ``ws-send`` form: the
form's fields as JSON, plus a ``HEADERS`` object that is ignored here. The
consumer stores the customer's message first (G11), then runs the agent's turn
in a background task; every event of the turn is rendered to an out-of-band
fragment and sent to the conversation's group, so a reply reaches every tab
showing the conversation, whichever worker runs the turn (channels-redis). The
answer's text is sent a few words at a time, not word by word
(bankbot/streaming.py).

When the channel layer fails (Redis down or hung), the socket is told so
directly and closed, never left hanging; a turn already running still finishes,
is stored, and reaches this socket directly.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import close_old_connections
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.errors import InvalidInput, NotFound
from accounts.models import Customer
from bankbot import agent
from bankbot.chat import conversation_get, message_accept, message_to_retry
from bankbot.chat_input import ChatInput, parse_frame, socket_language
from bankbot.fragments import (
    new_turn_id,
    render_event,
    render_failure,
    render_notice,
    render_text,
    render_turn_retry,
    render_turn_start,
)
from bankbot.models import Conversation, Message
from bankbot.outage import (
    DATABASE_ERRORS,
    LAYER_ERRORS,
    LIVE_CHAT_DOWN,
    MESSAGE_NOT_SAVED,
    SYSTEMS_UNREACHABLE,
    TRY_AGAIN_LATER_CLOSE_CODE,
    WORKER_BUSY,
)
from bankbot.streaming import Clock, TurnStream
from bankbot.turns import StopSignal, TurnStopped, turn_pool, turn_slots

log = logging.getLogger(__name__)

# Background turns, kept referenced until they finish (asyncio holds tasks weakly).
_turns: set[asyncio.Task[None]] = set()

def run_turn_in_thread(*, user: Any, conversation: Conversation, message: Message,
                       on_event: Callable[[agent.TurnEvent], None], language: str,
                       stop: StopSignal | None = None) -> None:
    """The agent's synchronous turn, on a thread of the turn pool (bankbot/turns.py)."""
    try:
        with translation.override(language):
            agent.run_turn(user=user, conversation=conversation, customer_message=message,
                           on_event=on_event, stop=stop)
    except TurnStopped:
        log.info("chat: a turn stopped before its next model call (the worker is stopping)")
    finally:
        close_old_connections()


def _own_conversation(user: Any, public_id: Any) -> tuple[Any, Conversation] | None:
    customer = Customer.objects.select_related("user").filter(user=user).first()
    if customer is None:
        return None
    try:
        return customer.user, conversation_get(customer=customer, public_id=public_id)
    except NotFound:
        return None


def group_name(conversation: Conversation) -> str:
    return f"chat.{conversation.public_id.hex}"


class ChatConsumer(AsyncWebsocketConsumer):
    # True from a message's acceptance to its answer's last fragment.
    answering = False
    # True while a turn of this socket runs (its last fragment included).
    turn_running = False
    # The channel layer failed for this socket: from then on it hears nothing from
    # the group, its own turn's fragments come to it directly, and it is closed
    # as soon as no turn is running.
    layer_lost = False
    layer_notice_sent = False
    turn = ""  # the id of this socket's latest turn
    joined = False
    is_open = False
    # When streamed text is due (bankbot/streaming.py); tests put a fake clock here.
    stream_clock: Clock = staticmethod(time.monotonic)

    # channels' AsyncConsumer.__call__ stores the layer's receive for this socket's
    # channel here and awaits it beside the customer's frames. A layer failure
    # there would end the consumer with an exception (HTTP 500 during the
    # handshake, a dropped socket after it); guarded, it becomes one
    # "chat.layer_lost" event, handled in turn like any other.
    @property
    def channel_receive(self) -> Callable[[], Awaitable[dict[str, Any]]]:
        return self._guarded_channel_receive

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self._layer_receive = receive

    async def _guarded_channel_receive(self) -> dict[str, Any]:
        if not self.layer_lost:
            try:
                return await self._layer_receive()
            except LAYER_ERRORS:
                log.warning("chat: the channel layer failed while listening", exc_info=True)
                self.layer_lost = True
                return {"type": "chat.layer_lost"}
        # Nothing more comes from the group: wait until the consumer stops (and cancels this).
        return await asyncio.get_running_loop().create_future()

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        self.language = socket_language(self.scope)
        try:
            found = await database_sync_to_async(_own_conversation)(
                user, self.scope["url_route"]["kwargs"]["public_id"])
        except DATABASE_ERRORS:
            # Said here, not raised: an exception would first wait for the channel
            # layer's pending receive to give up (seconds, with Redis).
            log.warning("chat: the database failed while a socket opened", exc_info=True)
            await self.accept()
            with translation.override(self.language):
                await self.notice(str(SYSTEMS_UNREACHABLE))
            await self.close(code=TRY_AGAIN_LATER_CLOSE_CODE)
            return
        if found is None:  # not a customer, or not their conversation
            await self.close()
            return
        self.user, self.conversation = found
        self.group = group_name(self.conversation)
        if not self.layer_lost:
            try:
                await self.channel_layer.group_add(self.group, self.channel_name)
                self.joined = True
            except LAYER_ERRORS:
                log.warning("chat: the channel layer failed on connect", exc_info=True)
                self.layer_lost = True
        # Accepted even without the layer: a refused handshake tells the customer nothing.
        await self.accept()
        self.is_open = True
        if self.layer_lost:
            await self.layer_failed()

    async def disconnect(self, code: int) -> None:
        # The turn, if any, keeps running: its answer is stored for the next visit.
        self.is_open = False
        if self.joined:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except LAYER_ERRORS:  # channels-redis expires the membership by itself
                log.warning("chat: group_discard failed", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.language):
            try:
                chat_input = parse_frame(text_data, bytes_data)
            except InvalidInput as error:
                await self.notice(error.message)
                return
            if self.answering:
                await self.notice(_("Please wait for the answer to your last message."))
                return
            if chat_input.is_retry:
                await self.retry(chat_input)
                return
            try:
                message = await database_sync_to_async(message_accept)(
                    conversation=self.conversation, text=chat_input.text,
                    client_message_id=chat_input.client_message_id,
                    ui_action=chat_input.ui_action)
            except InvalidInput as error:
                await self.notice(error.message)
                return
            except DATABASE_ERRORS:  # the message was not stored (one atomic insert)
                log.warning("chat: the database failed storing a message", exc_info=True)
                await self.notice(str(MESSAGE_NOT_SAVED))
                return
            if message is None:
                return  # a resent frame: stored and answered already
            turn = new_turn_id()
            new_title = ""
            if not self.conversation.title and message.text:  # chat.py titles it so
                new_title = self.conversation.title = message.text[:60]
            await self.answer(message, turn, render_turn_start(
                turn=turn, message=message, conversation=self.conversation, new_title=new_title))

    async def retry(self, chat_input: ChatInput) -> None:
        try:
            message = await database_sync_to_async(message_to_retry)(
                conversation=self.conversation)
        except DATABASE_ERRORS:
            log.warning("chat: the database failed finding a message to retry", exc_info=True)
            await self.notice(str(SYSTEMS_UNREACHABLE))
            return
        if message is None:
            await self.notice(_("There is nothing to retry."))
            return
        turn = new_turn_id()
        await self.answer(message, turn, render_turn_retry(
            turn=turn, retry_of=chat_input.retry_of, conversation=self.conversation))

    async def answer(self, message: Message, turn: str, opening: str) -> None:
        """Show the turn's opening fragment, then run the turn in the background,
        if this worker has a slot for it; if not, say so: the message is saved and
        the customer retries in a moment (never queued in silence)."""
        if not turn_slots().take():
            await self.broadcast(opening)
            with translation.override(self.language):
                await self.broadcast(render_failure(
                    turn=turn, conversation=self.conversation, text=str(WORKER_BUSY)))
            return
        self.answering = self.turn_running = True
        self.turn = turn  # the flags belong to this turn until another one starts
        try:
            await self.broadcast(opening)
        except BaseException:
            turn_slots().give_back()
            raise
        self.start_turn(message, turn)

    def start_turn(self, message: Message, turn: str) -> None:
        conversation, language = self.conversation, self.language
        # The opening fragment has just gone: the answer's text follows in a
        # handful of frames, not one per word (bankbot/streaming.py).
        def answered() -> None:
            # On the loop, just before the answer is sent: the customer may write
            # again as soon as they can see it, not a moment later.
            if self.turn == turn:
                self.answering = False

        stream = TurnStream(self.broadcast, lambda text: render_text(text, turn=turn),
                            clock=self.stream_clock, before_last=answered)

        def on_event(event: agent.TurnEvent) -> None:
            # On the turn's worker thread: text goes to the stream as it is (rendered
            # once per frame); other events are rendered here. Neither waits.
            if event.kind == "token":
                stream.text(event.text)
                return
            html = render_event(event, turn=turn, conversation=conversation)
            if html:
                stream.fragment(html, last=event.kind in ("final", "error"))

        stop = StopSignal()
        slots = turn_slots()

        async def run() -> None:
            try:
                try:
                    # On the turn pool, not the loop's default executor: waiting on the
                    # model holds a thread, and a worker holds as many as it has slots.
                    try:
                        future = turn_pool().submit(
                            run_turn_in_thread, user=self.user, conversation=conversation,
                            message=message, on_event=on_event, language=language, stop=stop)
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
                    await self.broadcast(render_failure(
                        turn=turn, conversation=conversation,
                        text=_("Something went wrong while answering. Your message is "
                               "saved; press Retry.")))
            finally:
                if self.turn == turn:  # a later turn's flags are its own
                    self.answering = self.turn_running = False
                if self.layer_lost:
                    await self.layer_failed()

        task = asyncio.get_running_loop().create_task(run())
        _turns.add(task)
        task.add_done_callback(_turns.discard)

    async def broadcast(self, html: str) -> None:
        """A turn's fragment, to every tab showing the conversation; once the layer
        has failed, to this socket alone (the turn runs here, so it still arrives)."""
        if not self.layer_lost:
            try:
                await self.channel_layer.group_send(
                    self.group, {"type": "chat.fragment", "html": html})
                return
            except LAYER_ERRORS:
                log.warning("chat: group_send failed; sending this turn directly", exc_info=True)
                self.layer_lost = True
        if self.is_open:
            await self.send(text_data=html)
        await self.layer_failed()

    async def layer_failed(self) -> None:
        """Tell this socket, directly, that live chat is down; close it once no
        turn is running (a running turn closes it when it ends)."""
        if not self.is_open:
            return
        if not self.layer_notice_sent:
            self.layer_notice_sent = True
            with translation.override(self.language):
                await self.notice(str(LIVE_CHAT_DOWN))
        if not self.turn_running:
            self.is_open = False
            await self.close(code=TRY_AGAIN_LATER_CLOSE_CODE)

    async def notice(self, text: str) -> None:
        """A notice for this socket only, sent directly (never through the group)."""
        await self.send(text_data=render_notice(text))

    async def chat_fragment(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])

    async def chat_layer_lost(self, event: dict[str, Any]) -> None:
        await self.layer_failed()
