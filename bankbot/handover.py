"""The chat's seam to the people of support (the ``support`` app, which stands above the
chat and plugs itself in here when it starts). The chat asks one thing of it — who, if
anyone, holds a conversation now — so that the model stays silent while a person does
(``bankbot/agent.py``). Without support plugged in, nobody ever holds a conversation.

It also keeps the one rule for how a staff member is named to a customer:
``staff_display_name`` ("Aigerim from support")."""

from __future__ import annotations

from typing import Protocol

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from bankbot.models import Conversation


class Handover(Protocol):
    def holder_name(self, conversation: Conversation) -> str | None:
        """The display name of the staff member holding ``conversation``, or None."""


class _Nobody:
    def holder_name(self, conversation: Conversation) -> str | None:
        return None


_handover: Handover = _Nobody()


def plug(handover: Handover) -> None:
    """Called once by the support app when it starts (``support/apps.py``)."""
    global _handover  # noqa: PLW0603 (one seam, plugged once at start-up)
    _handover = handover


def holder_name(conversation: Conversation) -> str | None:
    """Who holds the conversation now, read from the database each time (any worker)."""
    return _handover.holder_name(conversation)


def staff_name(user: AbstractBaseUser) -> str:
    """A staff member's own name: their short name, else their login."""
    short = getattr(user, "get_short_name", None)
    return (short() if callable(short) else "") or user.get_username()


def staff_display_name(user: AbstractBaseUser) -> str:
    """How a staff member is named to a customer, in the active language."""
    return _("%(name)s from support") % {"name": staff_name(user)}
