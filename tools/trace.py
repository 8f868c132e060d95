"""Writing the audit trace (G9): one append-only row per call and per state change."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from accounts.text import without_nul
from tools.models import Proposal, ToolCallTrace
from tools.provenance import plain


def _jsonable(value: Any) -> Any:
    if value is None:
        return None
    return without_nul(json.loads(json.dumps(plain(value), cls=DjangoJSONEncoder)))


def trace_record(**fields: Any) -> ToolCallTrace:
    """Write one trace row."""
    row = trace_entry(**fields)
    row.save()
    return row


def trace_entry(
    *,
    event: ToolCallTrace.Event,
    decision: str,
    tool: str = "",
    ctx: Any = None,
    customer: Any = None,
    conversation: Any = None,
    proposal: Proposal | None = None,
    raw_args: str = "",
    validated_args: dict | None = None,
    reason_code: str = "",
    reason: str = "",
    result: Any = None,
    idempotency_key: uuid.UUID | None = None,
    approver: Any = None,
    latency_ms: float = 0.0,
    harness: str = "guarded",
) -> ToolCallTrace:
    """One trace row, not yet written: a step that records several writes them
    together (``ToolCallTrace.objects.bulk_create``), in one statement."""
    if ctx is not None:
        customer = customer or ctx.customer
        conversation = conversation or ctx.conversation
    if proposal is not None:
        customer = customer or proposal.customer
        conversation = conversation or proposal.conversation
    mandate = without_nul(ctx.mandate.as_dict()) if ctx is not None else None
    return ToolCallTrace(
        harness=harness,
        event=event,
        decision=decision,
        tool=without_nul(tool),
        customer=customer,
        conversation=conversation,
        proposal=proposal,
        mandate=mandate,
        raw_args=without_nul(raw_args if isinstance(raw_args, str) else json.dumps(raw_args, default=str)),
        validated_args=_jsonable(validated_args),
        reason_code=reason_code,
        reason=without_nul(reason),
        result=_jsonable(result),
        idempotency_key=idempotency_key,
        approver=approver,
        latency_ms=round(latency_ms, 3),
    )
