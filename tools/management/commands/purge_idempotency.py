"""``manage.py purge_idempotency``: forget stored responses past their retention."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tools.idempotency import idempotency_purge


class Command(BaseCommand):
    help = (
        "Forget stored responses past their retention (BANKBOT_IDEMPOTENCY_TTL_HOURS); "
        "the confirmations themselves stay on the record."
    )

    def handle(self, *args: object, **options: object) -> None:
        deleted = idempotency_purge()
        self.stdout.write(f"Purged {deleted} stored responses past their retention.")
