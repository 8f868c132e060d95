"""The bank's news in a conversation, as the page shows it: a stored system message
about one of the customer's disputes (bankbot/dispute_news.py writes them)."""

from __future__ import annotations

from typing import Any

from bankbot.models import Message
from tools.catalog.raise_dispute import status_sentence

KIND = "dispute_update"


def news_of(message: Message) -> dict[str, Any] | None:
    """The news a stored message carries, in the active language (None if it is
    not news): the status in a sentence, and the staff's note to the customer."""
    payload = message.payload or {}
    if message.role != Message.Role.SYSTEM or payload.get("kind") != KIND:
        return None
    return {"kind": "news", "message": message, "note": str(payload.get("note", "")),
            "text": status_sentence(str(payload.get("dispute", "")),
                                    str(payload.get("status", "")))}
