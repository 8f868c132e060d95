"""Template helpers for the chat: money, dates, the CSRF header, and two tags that hand
the confirm card and the row buttons their view-models (bankbot/cards.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import date, timedelta

from django import template
from django.utils import formats, timezone, translation

from accounts.models import Customer
from accounts.money import kzt_text
from bankbot import cards
from bankbot.cards import ProposalCard, RowAction
from bankbot.models import Conversation
from tools.models import Proposal

register = template.Library()


@register.filter
def kzt(value: object) -> str:
    """15000.5 → "15,000.50 ₸" (English) or "15 000,50 ₸" (Russian): accounts/money.py's
    one formatter, which the answers use too. Its values are stored figures and
    canonical tool arguments ("15000.00"); amounts a person typed are read there."""
    return kzt_text(value)


@register.filter
def isodate(value: object) -> date | object:
    """A tool result's "2026-10-03" as a date, for the |date filter."""
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return value


@register.filter
def month_name(value: object) -> str:
    """ "2026-10" → "October 2026" ("октябрь 2026" in Russian, as after "за")."""
    try:
        first = date.fromisoformat(f"{str(value)[:7]}-01")
    except ValueError:
        return str(value)
    label = formats.date_format(first, "F Y")
    if (translation.get_language() or "en").startswith("ru"):
        label = label[:1].lower() + label[1:]
    return label


@register.filter
def is_current_month(value: object) -> bool:
    """Whether "2026-10" is this month in the bank's time zone (its statement may still grow)."""
    return str(value)[:7] == f"{timezone.localdate():%Y-%m}"


@register.filter
def minutes(value: object) -> int:
    """A timedelta in whole minutes, rounded up (axes' cool-off time)."""
    seconds = value.total_seconds() if isinstance(value, timedelta) else 0
    return max(1, -(-int(seconds) // 60))


@register.simple_tag(takes_context=True)
def hx_csrf_headers(context: template.Context) -> str:
    """The JSON for <body hx-headers>: every htmx request carries the CSRF token.
    Auto-escaped by the tag, so it sits safely in a double-quoted attribute."""
    return json.dumps({"X-CSRFToken": str(context.get("csrf_token", ""))})


@register.simple_tag
def new_client_id() -> str:
    """A fresh id for a chat form, so the server stores a resent frame once."""
    return uuid.uuid4().hex


@register.simple_tag
def proposal_card(proposal: Proposal) -> ProposalCard:
    """What the confirm card shows, from the stored proposal alone (bankbot/cards.py)."""
    return cards.proposal_card(proposal)


@register.simple_tag
def disputes_shown(
    rows: Sequence[Mapping[str, object]] | None, conversation: object = None
) -> list[dict[str, object]]:
    """The disputes table's rows with each transaction's merchant and date (bankbot/cards.py).
    ``conversation``: the page's, when it has one (a template's missing value is "")."""
    customer = conversation.customer if isinstance(conversation, Conversation) else None
    return cards.disputes_shown(rows or [], customer)


@register.simple_tag(takes_context=True)
def transactions_shown(
    context: template.Context, rows: Sequence[Mapping[str, object]] | None
) -> list[dict[str, object]]:
    """A statement's rows with each transaction's dispute as it is now (bankbot/cards.py):
    the customer is the page's, or the conversation's on a streamed fragment."""
    customer = context.get("customer")
    if not isinstance(customer, Customer):
        conversation = context.get("conversation")
        customer = conversation.customer if isinstance(conversation, Conversation) else None
    return cards.transactions_shown(rows or [], customer)


@register.simple_tag
def row_actions(kind: str, row: Mapping[str, object]) -> list[RowAction]:
    """The write buttons on one row of a card list or a statement (bankbot/cards.py)."""
    return cards.row_actions(kind, row)
