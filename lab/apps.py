"""The Injection Lab as a Django app for trainees: its pages and ``manage.py injectionlab``.
The Trainee group is made after every migrate."""

from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LabConfig(AppConfig):
    name = "lab"
    verbose_name = "Injection Lab"

    def ready(self) -> None:
        # As the Support group (disputes/apps.py): made after every migrate, idempotently.
        post_migrate.connect(_ensure_trainee_group, dispatch_uid="bankbot-trainee-group")


def _ensure_trainee_group(sender: AppConfig, using: str = "default", **kwargs: object) -> None:
    from lab.roles import trainee_group_ensure

    trainee_group_ensure(using=using)
