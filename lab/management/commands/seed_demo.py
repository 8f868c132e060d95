"""Create the demo customers, staff user, trainee and transactions. Safe to run twice.

It lives in the lab, the top app, because it makes every demo login: the customers
(``accounts/demo.py``), the support user (``disputes/roles.py``) and the trainee
(``lab/roles.py``), and only the lab may import all three.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.demo import DEMO_LOGINS, SUPPORT_LOGIN, SUPPORT_NAME, TRAINEE_LOGIN, seed_demo
from disputes.roles import support_staff_ensure
from lab.roles import trainee_ensure


class Command(BaseCommand):
    help = (
        "Create demo customers alice and bob, a support user, a trainee, cards and six months of "
        "transactions."
    )

    def handle(self, *args: object, **options: object) -> None:
        with transaction.atomic():
            summary = seed_demo()
            username, password, _ = SUPPORT_LOGIN
            support_staff_ensure(username=username, password=password)
            # Customers meet support staff by their first name ("Aigerim from support").
            get_user_model().objects.filter(username=username, first_name="").update(first_name=SUPPORT_NAME)
            username, password, _ = TRAINEE_LOGIN
            trainee_ensure(username=username, password=password)
        for line in summary:
            self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS("Demo data is ready. Sign in with:"))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {username:<8} {password:<18} {role}")
