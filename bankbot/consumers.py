"""The chat WebSocket, ``ws/chat/<conversation public_id>/``: it only connects, receives
and broadcasts. A frame (bankbot/chat_input.py) is stored first (G11), its turn runs in the
background (bankbot/turn_task.py), and the turn's fragments (bankbot/fragments.py) go to the
conversation's group: every tab showing it gets them, whichever worker runs the turn. A
database or channel-layer failure is told to the socket (bankbot/outage.py, whose
``LayerWatchingConsumer`` hears the layer fail under it), never left hanging; it serves its
session only while that lasts (bankbot/socket_sessions.py). What the socket does next is
its ``SocketState``.
"""

from __future__ import annotations

import enum
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext as _

from bankbot import catch_up, fragments, outage
from bankbot.chat import conversation_of_user, message_retry_accept
from bankbot.chat_input import ChatInput, frame_client_id, parse_frame, socket_language
from bankbot.message_intake import MessageIntake
from bankbot.models import Message
from bankbot.streaming import Clock
from bankbot.turn_task import start_turn
from bankbot.turns import turn_slots
from errors import InvalidInput

log = logging.getLogger(__name__)


class SocketState(enum.Enum):
    CONNECTING = "connecting"  # the handshake: nothing accepted yet
    OPEN = "open"  # accepted, in the conversation's group: the customer may send
    ANSWERING = "answering"  # the latest turn's answer is not out yet: the customer waits
    LAYER_LOST = "layer_lost"  # told so; its turn's fragments come directly; closed when it ends
    CLOSED = "closed"


class ChatConsumer(catch_up.TurnCatchUp, outage.LayerWatchingConsumer, MessageIntake):
    state = SocketState.CONNECTING
    group = ""  # the conversation's group, once joined
    running_turn: str | None = None  # the latest turn, while it runs: the state is its own
    # When streamed text is due (bankbot/streaming.py); tests put a fake clock here.
    stream_clock: Clock = staticmethod(time.monotonic)

    def still_listening(self) -> bool:  # outage.LayerWatchingConsumer
        return self.state not in (SocketState.LAYER_LOST, SocketState.CLOSED)

    async def layer_failed(self) -> None:
        if self.state is SocketState.CONNECTING:
            self.state = SocketState.LAYER_LOST  # told once connect has accepted
        else:
            await self.lose_layer()

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            self.state = SocketState.CLOSED
            await self.close()
            return
        self.language = socket_language(self.scope)
        try:
            conversation = await database_sync_to_async(conversation_of_user)(
                user=user, public_id=self.scope["url_route"]["kwargs"]["public_id"]
            )
        except outage.DATABASE_ERRORS:
            # Said here, not raised: an exception would first wait for the channel
            # layer's pending receive to give up (seconds, with Redis).
            log.warning("chat: the database failed while a socket opened", exc_info=True)
            await self.accept()
            with translation.override(self.language):
                await self.notice(str(outage.SYSTEMS_UNREACHABLE))
            self.state = SocketState.CLOSED
            await self.close(code=outage.TRY_AGAIN_LATER_CLOSE_CODE)
            return
        if conversation is None:  # not a customer, or not their conversation
            self.state = SocketState.CLOSED
            await self.close()
            return
        self.conversation, self.user = conversation, conversation.customer.user
        self.remember_session(self.user.pk)
        if self.state is SocketState.CONNECTING:  # the layer has not failed yet
            try:
                await self.channel_layer.group_add(fragments.group_name(self.conversation), self.channel_name)
                self.group = fragments.group_name(self.conversation)
                await self.join_session_group()
            except outage.LAYER_ERRORS:
                log.warning("chat: the channel layer failed on connect", exc_info=True)
                self.state = SocketState.LAYER_LOST
        # Accepted even without the layer: a refused handshake tells the customer nothing.
        await self.accept_catching_up()  # with what it missed of a turn running meanwhile
        if self.state is SocketState.LAYER_LOST:
            await self.tell_layer_lost()
        else:
            self.state = SocketState.OPEN

    async def disconnect(self, code: int) -> None:
        # The turn, if any, keeps running: its answer is stored for the next visit.
        self.state = SocketState.CLOSED
        for group in filter(None, (self.group, self.session_group)):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except outage.LAYER_ERRORS:  # channels-redis expires the membership by itself
                log.warning("chat: group_discard failed", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # A refusal names the frame's client message id, so the page knows which
        # text was not sent and keeps it (app.js); a stored message's opening
        # fragment names it too (stream.html#receipt).
        sender = frame_client_id(text_data)
        with translation.override(self.language):
            if self.state is SocketState.CLOSED:
                return
            chat_input: ChatInput | InvalidInput
            try:
                chat_input = parse_frame(text_data, bytes_data)
            except InvalidInput as error:
                chat_input = error
            if (
                isinstance(chat_input, ChatInput)
                and not chat_input.is_retry
                and (self.state is SocketState.OPEN)
            ):
                await self.accept_message(chat_input, sender)  # the session is checked there
            elif await self.session_goes_on(refused=sender):
                await self.refuse_or_retry(chat_input, sender)

    async def refuse_or_retry(self, chat_input: ChatInput | InvalidInput, sender: str) -> None:
        """A frame that is not a message the socket takes now (the session lasts)."""
        if isinstance(chat_input, InvalidInput):
            await self.notice(chat_input.message, refused=sender)
        elif self.state is SocketState.ANSWERING:
            await self.notice(_("Please wait for the answer to your last message."), refused=sender)
        elif self.state is SocketState.LAYER_LOST:  # closing once its turn ends
            await self.notice(str(outage.LIVE_CHAT_DOWN), refused=sender)
        elif self.state is SocketState.OPEN:
            await (self.retry(chat_input) if chat_input.is_retry else self.accept_message(chat_input, sender))

    async def retry(self, chat_input: ChatInput) -> None:
        try:  # a retry is counted as a message (bankbot/chat.py); it takes a slot (answer)
            message = await database_sync_to_async(message_retry_accept)(conversation=self.conversation)
        except InvalidInput as error:
            await self.notice(error.message)
            return
        except outage.DATABASE_ERRORS:
            log.warning("chat: the database failed finding a message to retry", exc_info=True)
            await self.notice(str(outage.SYSTEMS_UNREACHABLE))
            return
        if message is None:
            await self.notice(_("There is nothing to retry."))
            return
        turn = fragments.new_turn_id()
        await self.answer(
            message,
            turn,
            fragments.render_turn_retry(
                turn=turn, retry_of=chat_input.retry_of, conversation=self.conversation
            ),
        )

    async def answer(self, message: Message, turn: str, opening: str) -> None:
        """The turn's opening fragment, then the turn in the background if this worker
        has a slot for it; if not, that is said: never queued in silence."""
        if not turn_slots().take():
            await self.broadcast(opening)
            with translation.override(self.language):
                await self.broadcast(
                    fragments.render_failure(
                        turn=turn, conversation=self.conversation, text=str(outage.WORKER_BUSY)
                    )
                )
            return
        self.running_turn = turn  # the state belongs to this turn until another starts
        if self.state is SocketState.OPEN:
            self.state = SocketState.ANSWERING
        try:
            await self.broadcast(opening)
        except BaseException:
            turn_slots().give_back()
            raise
        start_turn(
            turn=turn,
            user=self.user,
            conversation=self.conversation,
            message=message,
            language=self.language,
            send=self.broadcast,
            clock=self.stream_clock,
            answered=lambda: self.answered(turn),
            ended=lambda: self.turn_ended(turn),
        )

    def answered(self, turn: str) -> None:
        if self.running_turn == turn and self.state is SocketState.ANSWERING:
            self.state = SocketState.OPEN

    async def turn_ended(self, turn: str) -> None:
        if self.running_turn == turn:  # a later turn's state is its own
            self.answered(turn)
            self.running_turn = None
        await self.close_if_idle()

    async def broadcast(self, html: str, **kw: Any) -> None:
        """A turn's fragment (``kw``: its turn and number), to every tab showing the
        conversation; once the layer has failed, to this socket alone."""
        if self.state is not SocketState.LAYER_LOST:
            try:
                await self.channel_layer.group_send(self.group, {"type": "chat.fragment", "html": html, **kw})
                return
            except outage.LAYER_ERRORS:
                log.warning("chat: group_send failed; sending this turn directly", exc_info=True)
        if self.state is not SocketState.CLOSED:
            await self.send(text_data=html)
        await self.lose_layer()

    async def lose_layer(self) -> None:
        """The layer failed under an open socket: told once; closed once no turn of its runs."""
        if self.state in (SocketState.OPEN, SocketState.ANSWERING):
            self.state = SocketState.LAYER_LOST
            await self.tell_layer_lost()

    async def tell_layer_lost(self) -> None:
        with translation.override(self.language):
            await self.notice(str(outage.LIVE_CHAT_DOWN))
        await self.close_if_idle()

    async def close_if_idle(self) -> None:
        if self.state is SocketState.LAYER_LOST and self.running_turn is None:
            self.state = SocketState.CLOSED
            await self.close(code=outage.TRY_AGAIN_LATER_CLOSE_CODE)

    async def session_ended(self) -> None:  # a running turn's answer is kept for the next sign-in
        if self.state is not SocketState.CLOSED:  # said once; the group is no longer heard
            self.state = SocketState.CLOSED
            await super().session_ended()

    async def notice(self, text: str, *, refused: str = "") -> None:
        """A notice for this socket only, sent directly (never through the group);
        ``refused``: the client message id of the frame it turns away."""
        await self.send(text_data=fragments.render_notice(text, refused=refused))

    async def chat_fragment(self, event: dict[str, Any]) -> None:
        """A fragment for the group, in this socket's language and place (fragments.py)."""
        await self.send(text_data=fragments.for_socket(event, self.conversation.public_id.hex, self.language))
