"""Disputes and their review; the Support group is rebuilt after every migrate."""

from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class DisputesConfig(AppConfig):
    name = "disputes"

    def ready(self) -> None:
        # Permissions exist only once migrate has created them, so the Support
        # group is rebuilt after every migrate; rebuilding is idempotent.
        post_migrate.connect(_ensure_support_group, dispatch_uid="bankbot-support-group")


def _ensure_support_group(sender: AppConfig, using: str = "default", **kwargs: object) -> None:
    from disputes.roles import support_group_ensure

    support_group_ensure(using=using)
