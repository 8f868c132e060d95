"""``manage.py labcatalogue``: play every built-in scenario with its own model through
both harnesses (a customer who confirms every card) and store what each did in
lab/catalogue.json, for the trainee page's filters and the scores page."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from lab.catalogue import CATALOGUE_PATH, catalogue_measure, catalogue_write
from lab.loader import load_builtin


class Command(BaseCommand):
    help = "Measure each built-in lab scenario with its own model and store it for the trainee pages."

    def handle(self, *args: Any, **options: Any) -> None:
        data = catalogue_measure(load_builtin())
        catalogue_write(data)
        self.stdout.write(f"{len(data['scenarios'])} scenarios measured; stored in {CATALOGUE_PATH.name}")
