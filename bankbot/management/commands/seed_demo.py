"""Create the demo customers, staff user and transactions. Safe to run twice."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from accounts.demo import DEMO_LOGINS, seed_demo


class Command(BaseCommand):
    help = "Create demo customers alice and bob, a support user, cards and six months of transactions."

    def handle(self, *args: object, **options: object) -> None:
        summary = seed_demo()
        for line in summary:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS("Demo data is ready. Sign in with:"))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {username:<8} {password:<18} {role}")
