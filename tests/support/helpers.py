"""Support staff and hand-overs for the support tests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from bankbot.models import Conversation
from disputes.roles import SUPPORT_GROUP, support_group_ensure
from support.models import Handoff
from support.services import handoff_request


def make_support_staff(username: str, first_name: str = "") -> Any:
    """An active staff user in the Support group."""
    support_group_ensure()
    user = get_user_model().objects.create_user(
        username=username, password=f"{username}-pw-123", is_staff=True, first_name=first_name
    )
    user.groups.add(Group.objects.get(name=SUPPORT_GROUP))
    return user


def queued(conversation: Conversation, reason: str = "asked", language: str = "en") -> Handoff:
    """The customer asked for a person in ``conversation``: its queue entry."""
    return handoff_request(conversation=conversation, reason=reason, language=language).handoff
