"""A customer's message, taken in by the chat socket (bankbot/consumers.py) in one trip to
the worker's database thread: the session check every frame gets, the resent-frame
check, the rate limit and the INSERT (bankbot/chat.py ``message_accept``). A burst of
customers' messages queues on that one thread, each statement giving up and taking
back the GIL that every streaming turn shares, so a message costs one trip, not two
(docs/benchmarks.md, part g). What the socket does with a refusal, a resent frame or
a stored message is the same as before.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async

from bankbot import fragments, outage
from bankbot.chat import message_accept
from bankbot.chat_input import ChatInput
from bankbot.models import Message
from bankbot.socket_sessions import SessionBoundConsumer, SessionUnreadable, session_then
from errors import InvalidInput

log = logging.getLogger(__name__)


class MessageIntake(SessionBoundConsumer):
    conversation: Any  # the socket's conversation, once connected

    async def accept_message(self, chat_input: ChatInput, sender: str) -> None:
        """Store the message if the session lasts, then open its turn (``answer``);
        a refusal or a failure is said to this socket, naming the frame (``sender``)."""
        try:
            lasts, message = await database_sync_to_async(session_then)(
                session_key=self.session_key,
                user_pk=self.session_user_pk,
                then=lambda: message_accept(
                    conversation=self.conversation,
                    text=chat_input.text,
                    client_message_id=chat_input.client_message_id,
                    ui_action=chat_input.ui_action,
                ),
            )
        except SessionUnreadable:
            log.warning("chat: the database failed checking a socket's session", exc_info=True)
            await self.notice(str(outage.SYSTEMS_UNREACHABLE), refused=sender)
            return
        except InvalidInput as error:
            await self.notice(error.message, refused=sender)
            return
        except outage.DATABASE_ERRORS:  # the message was not stored (one atomic insert)
            log.warning("chat: the database failed storing a message", exc_info=True)
            await self.notice(str(outage.MESSAGE_NOT_SAVED), refused=sender)
            return
        if not lasts:
            await self.session_ended()
            return
        if message is None:  # a resent frame: stored and answered already
            await self.send(text_data=fragments.render_receipt(sender))
            return
        turn = fragments.new_turn_id()
        new_title = ""
        if not self.conversation.title and message.text:  # chat.py titles it so
            new_title = self.conversation.title = message.text[:60]
        await self.answer(
            message,
            turn,
            fragments.render_turn_start(
                turn=turn, message=message, conversation=self.conversation, new_title=new_title
            ),
        )

    async def answer(self, message: Message, turn: str, opening: str) -> None:
        raise NotImplementedError  # the socket's: its turn, in a slot of the worker's
