from __future__ import annotations

from django.core.management.base import BaseCommand

from tools.idempotency import idempotency_purge


class Command(BaseCommand):
    help = "Delete idempotency records past their retention (BANKBOT_IDEMPOTENCY_TTL_HOURS)."

    def handle(self, *args: object, **options: object) -> None:
        deleted = idempotency_purge()
        self.stdout.write(f"Purged {deleted} expired idempotency records.")
