"""Create the demo customers, staff user and transactions. Safe to run twice."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.demo import DEMO_LOGINS, SUPPORT_LOGIN, SUPPORT_NAME, seed_demo
from disputes.roles import support_staff_ensure


class Command(BaseCommand):
    help = "Create demo customers alice and bob, a support user, cards and six months of transactions."

    def handle(self, *args: object, **options: object) -> None:
        with transaction.atomic():
            summary = seed_demo()
            username, password, _ = SUPPORT_LOGIN
            support_staff_ensure(username=username, password=password)
            # Customers meet support staff by their first name ("Aigerim from support").
            get_user_model().objects.filter(username=username, first_name="").update(first_name=SUPPORT_NAME)
        for line in summary:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS("Demo data is ready. Sign in with:"))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {username:<8} {password:<18} {role}")
