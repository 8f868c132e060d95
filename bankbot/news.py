"""The bank's news in a conversation, as the page shows it: a stored system message
about one of the customer's disputes (bankbot/dispute_news.py writes them)."""

from __future__ import annotations

from typing import Any

from bankbot.chat import dispute_news_of
from bankbot.models import Message
from tools.catalog.raise_dispute import status_sentence


def news_of(message: Message) -> dict[str, Any] | None:
    """The news a stored message carries, in the active language (None if it is
    not news): the status in a sentence, and the staff's note to the customer."""
    news = dispute_news_of(message)
    if news is None:
        return None
    return {
        "kind": "news",
        "message": message,
        "note": news["note"],
        "text": status_sentence(news["dispute"], news["status"]),
    }
