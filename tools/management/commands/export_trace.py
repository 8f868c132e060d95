"""Write the audit trace as JSON Lines, for auditors and offline analysis."""

from __future__ import annotations

import json
import sys
from datetime import datetime, time

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from tools.models import ToolCallTrace

FIELDS = [
    "id",
    "created_at",
    "harness",
    "event",
    "tool",
    "decision",
    "reason_code",
    "reason",
    "mandate",
    "raw_args",
    "validated_args",
    "result",
    "idempotency_key",
    "latency_ms",
]


def parse_since(value: str) -> datetime:
    moment = parse_datetime(value)
    if moment is None:
        day = parse_date(value)
        if day is None:
            raise CommandError(
                f"--since {value!r}: give a date (2026-11-01) or a date and time (2026-11-01T09:00)"
            )
        moment = datetime.combine(day, time.min)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


class Command(BaseCommand):
    help = "Export trace rows as JSON Lines (one object per line), oldest first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", help="Only rows at or after this date/time.")
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")

    def handle(
        self, *args: object, since: str | None = None, output: str | None = None, **options: object
    ) -> None:
        rows = ToolCallTrace.objects.select_related("customer__user", "approver", "proposal", "conversation")
        if since:
            rows = rows.filter(created_at__gte=parse_since(since))
        out = open(output, "w", encoding="utf-8") if output else sys.stdout  # noqa: SIM115
        count = 0
        try:
            for row in rows.order_by("id").iterator(chunk_size=2000):
                record = {name: getattr(row, name) for name in FIELDS}
                record["customer"] = row.customer.user.username if row.customer else None
                record["approver"] = row.approver.username if row.approver else None
                record["proposal"] = row.proposal.reference if row.proposal else None
                record["conversation"] = row.conversation_id
                out.write(json.dumps(record, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n")
                count += 1
        finally:
            if output:
                out.close()
        if output:
            self.stderr.write(f"Wrote {count} trace rows to {output}")
