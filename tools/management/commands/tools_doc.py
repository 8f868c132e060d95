"""``manage.py tools_doc [--check]``: docs/tools.md, generated from the tool catalog."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.docs import render_tools_doc


class Command(BaseCommand):
    help = "Write docs/tools.md from the tool registry (--check: fail if it is out of date)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true")

    def handle(self, *args: object, check: bool = False, **options: object) -> None:
        path = Path(settings.BASE_DIR) / "docs" / "tools.md"
        text = render_tools_doc()
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                raise CommandError(f"{path} is out of date: run python manage.py tools_doc")
            self.stdout.write(f"{path} is up to date.")
            return
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.stdout.write(f"Wrote {path}")
