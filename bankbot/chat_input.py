"""What the customer sends to the chat, read one way: a WebSocket frame (the htmx
``ws`` extension's JSON of a ``ws-send`` form) or a plain form post. A bad input
becomes an InvalidInput with a sentence the customer can act on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qs

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from errors import InvalidInput
from tools.catalog import CATALOG, WriteTool

MAX_FRAME_BYTES = 8 * 1024
# A frame is a flat object of form fields with htmx's HEADERS object in it: two levels.
# Deeper is not a form; and Python's JSON parser recurses once per level, so 6 KB of
# "[" would raise RecursionError instead of a sentence.
MAX_FRAME_DEPTH = 8

_TURN_ID = re.compile(r"^[0-9a-f]{12}$")

UNREADABLE = gettext_lazy("Part of your message could not be read (it shows as �). Please type it again.")


@dataclass(frozen=True)
class ChatInput:
    text: str = ""
    client_message_id: str | None = None
    ui_action: dict[str, str] | None = None
    retry_of: str | None = None  # the turn whose failure the customer retries

    @property
    def is_retry(self) -> bool:
        return self.retry_of is not None


def _malformed(code: str = "malformed_frame") -> InvalidInput:
    return InvalidInput(_("The message could not be read."), code=code)


def chat_input_from(fields: Mapping[str, object]) -> ChatInput:
    """Read a chat input from form fields (a frame's JSON or request.POST).

    An operation button sends ``operation`` and ``target``; the readable text
    is written here, so what the customer sees is what the harness's mandate
    gets. Raises InvalidInput with a sentence for the customer.
    """

    def field(name: str) -> str:
        value = fields.get(name, "")
        if not isinstance(value, str):
            raise _malformed()
        if unreadable(value):
            raise InvalidInput(str(UNREADABLE), code="unreadable_text")
        return value

    action = field("action") or "send"
    if action == "retry":
        turn = field("turn")
        if turn and not _TURN_ID.match(turn):
            raise _malformed()
        return ChatInput(retry_of=turn)
    if action != "send":
        raise _malformed()
    ui_action = None
    text = field("text")
    operation = field("operation")
    if operation:
        # What an explicit UI choice may say: a write tool with a button, the name of
        # its target, and the fields its button may add (a dispute's reason code).
        spec = CATALOG.get(operation)
        if not isinstance(spec, WriteTool):
            raise _malformed()
        target = spec.target.normal(field("target"))
        if not spec.target.pattern.match(target):
            raise _malformed()
        ui_action = {"operation": operation, spec.target.kind: target}
        for name, allowed in spec.ui.extras.items():
            value = field(name)
            if value and value not in allowed:
                raise _malformed()
            if value:
                ui_action[name] = value
        text = spec.ui.text(ui_action)  # the message a click writes, in the page's language
    return ChatInput(text=text, client_message_id=field("client_message_id") or None, ui_action=ui_action)


def parse_frame(text_data: str | None, bytes_data: bytes | None) -> ChatInput:
    """A WebSocket frame: one JSON object of form fields, text, at most MAX_FRAME_BYTES."""
    if text_data is None or bytes_data is not None:
        raise _malformed()
    try:
        size = len(text_data.encode("utf-8"))
    except UnicodeEncodeError:  # a lone surrogate: not text
        raise InvalidInput(str(UNREADABLE), code="unreadable_text") from None
    if size > MAX_FRAME_BYTES:
        raise InvalidInput(_("That message is too large to send. Please shorten it."), code="frame_too_large")
    if nested_deeper_than(text_data, MAX_FRAME_DEPTH):
        raise _malformed("frame_too_deep")
    try:
        fields = json.loads(text_data)
    except ValueError:
        raise _malformed() from None
    if not isinstance(fields, dict):
        raise _malformed()
    return chat_input_from(fields)


def nested_deeper_than(text: str, limit: int) -> bool:
    """Whether JSON text nests arrays and objects more than ``limit`` levels deep,
    read before parsing it: one pass over the characters, brackets inside strings
    not counted."""
    if text.count("[") + text.count("{") <= limit:
        return False  # every frame a page sends
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def socket_language(scope: Mapping[str, object]) -> str:
    """The page's language, passed in the socket URL (?lang=ru); the default otherwise."""
    raw = scope.get("query_string", b"")
    query = parse_qs(raw.decode("latin1") if isinstance(raw, bytes) else "")
    wanted = (query.get("lang") or [""])[0]
    supported = {code for code, _name in settings.LANGUAGES}
    return wanted if wanted in supported else settings.LANGUAGE_CODE


def unreadable(text: str) -> bool:
    """Text that is not text: a lone surrogate (JSON can carry one; no database can
    store it), or U+FFFD, which stands where a browser or Django met characters
    that were not text (a form field with a lone surrogate arrives as one)."""
    if "\ufffd" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


_CLIENT_ID = re.compile(r"^[0-9A-Za-z_-]{1,64}$")
_CLIENT_ID_FRAME_BYTES = 64 * 1024  # past this a frame is not read even for its id


def frame_client_id(text_data: str | None) -> str:
    """The client message id of a frame, when one can be read, even from a frame
    refused as too large or unreadable; "" otherwise."""
    if (
        not text_data
        or len(text_data) > _CLIENT_ID_FRAME_BYTES
        or nested_deeper_than(text_data, MAX_FRAME_DEPTH)
    ):
        return ""
    try:
        fields = json.loads(text_data)
    except ValueError:
        return ""
    value = fields.get("client_message_id") if isinstance(fields, dict) else None
    return value if isinstance(value, str) and _CLIENT_ID.match(value) else ""
