"""Support staff take over a conversation, live (docs/support.md). The app plugs itself
into the chat's seam (``bankbot/handover.py``) so the model stays silent while a person
holds a conversation."""

from __future__ import annotations

from django.apps import AppConfig


class SupportConfig(AppConfig):
    name = "support"

    def ready(self) -> None:
        from bankbot import handover
        from support.services import SupportHandover

        handover.plug(SupportHandover())
