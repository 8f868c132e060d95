"""Writing the audit trace (G9): one append-only row per call and per state change."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ParamSpec

from django.core.serializers.json import DjangoJSONEncoder

from accounts.models import Customer
from accounts.text import without_nul
from tools.context import ActionContext, ConversationLike, key_target
from tools.json_types import JSONValue
from tools.models import Proposal, ToolCallTrace
from tools.provenance import plain

if TYPE_CHECKING:
    from django.contrib.auth.models import User

_P = ParamSpec("_P")


def _jsonable(value: object) -> JSONValue:
    if value is None:
        return None
    stored: JSONValue = json.loads(json.dumps(plain(value), cls=DjangoJSONEncoder))
    return without_nul(stored)


def trace_entry(
    *,
    event: ToolCallTrace.Event,
    decision: str,
    tool: str = "",
    ctx: ActionContext | None = None,
    customer: Customer | None = None,
    conversation: ConversationLike | None = None,
    proposal: Proposal | None = None,
    raw_args: str = "",
    validated_args: Mapping[str, object] | None = None,
    reason_code: str = "",
    reason: str = "",
    result: object = None,
    idempotency_key: uuid.UUID | None = None,
    approver: User | None = None,
    proposer: User | None = None,
    latency_ms: float = 0.0,
    harness: str = "guarded",
) -> ToolCallTrace:
    """One trace row, not yet written: a step that records several writes them
    together (``ToolCallTrace.objects.bulk_create``), in one statement.

    A row about a proposal that staff made names its proposer (``proposed_by``,
    read by id: no extra query) beside whoever clicked, so every row of a staff
    proposal — proposed, executed, replayed, declined, refused — names both."""
    if ctx is not None:
        customer = customer or ctx.customer
        conversation = conversation or ctx.conversation
    if proposal is not None:
        customer = customer or proposal.customer
        conversation = conversation or proposal.conversation
    mandate = without_nul(ctx.mandate.as_dict()) if ctx is not None else None
    # The chat's conversation, typed as the key's target (tools/context.py, key_target).
    stored = None if conversation is None else key_target(ToolCallTrace.conversation.field, conversation)
    proposer_id = proposer.pk if proposer is not None else None
    if proposer_id is None and proposal is not None:
        proposer_id = proposal.proposed_by_id
    return ToolCallTrace(
        harness=harness,
        event=event,
        decision=decision,
        tool=without_nul(tool),
        customer=customer,
        conversation=stored,
        proposal=proposal,
        mandate=mandate,
        raw_args=without_nul(raw_args if isinstance(raw_args, str) else json.dumps(raw_args, default=str)),
        validated_args=_jsonable(validated_args),
        reason_code=reason_code,
        reason=without_nul(reason),
        result=_jsonable(result),
        idempotency_key=idempotency_key,
        approver=approver,
        proposer_id=proposer_id,
        latency_ms=round(latency_ms, 3),
    )


def _written(entry: Callable[_P, ToolCallTrace]) -> Callable[_P, ToolCallTrace]:
    def record(*args: _P.args, **kwargs: _P.kwargs) -> ToolCallTrace:
        row = entry(*args, **kwargs)
        row.save()
        return row

    return record


# Write one trace row: ``trace_entry``'s arguments, and the row saved at once.
trace_record = _written(trace_entry)
