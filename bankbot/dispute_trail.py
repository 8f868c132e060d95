"""The dispute trail support staff read: the confirmation, the chat and the trace
rows that led to a dispute, and the reviews since. Here, with the chat, because it
reads the chat and the trace; the disputes package reads neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bankbot.models import Message
from disputes.models import Dispute, DisputeReview
from tools.models import Confirmation, Proposal, ToolCallTrace

# How much of the conversation the dispute page shows around the proposal.
MESSAGES_BEFORE = 6
MESSAGES_AFTER = 2
# The conversation's own trace rows (reads, denials) shown before the execution.
CONTEXT_TRACE_ROWS = 30


@dataclass(frozen=True)
class DisputeTrail:
    """Everything that led to one dispute, and what staff did with it since."""

    dispute: Dispute
    confirmation: Confirmation | None = None
    messages: list[Message] = field(default_factory=list)
    trace: list[ToolCallTrace] = field(default_factory=list)
    reviews: list[DisputeReview] = field(default_factory=list)

    @property
    def proposal(self) -> Proposal | None:
        return self.confirmation.proposal if self.confirmation else None


def dispute_trail(*, dispute: Dispute) -> DisputeTrail:
    """The confirmation whose idempotency key opened the dispute, the customer's and
    assistant's messages around its proposal, and the trace rows that led to it.

    The key is made by the server when the customer clicks Confirm and is unique,
    so it ties the dispute to exactly one confirmation. A dispute opened some other
    way (the lab's naive harness, a script) has none, and the trail says so.
    """
    reviews = list(DisputeReview.objects.filter(dispute=dispute).select_related("staff_user"))
    confirmation = (
        Confirmation.objects.select_related("approver", "proposal__conversation", "proposal__proposed_by")
        .filter(idempotency_key=dispute.idempotency_key, proposal__customer=dispute.customer_id)
        .first()
    )
    if confirmation is None:
        return DisputeTrail(dispute=dispute, reviews=reviews)
    proposal = confirmation.proposal
    return DisputeTrail(
        dispute=dispute,
        confirmation=confirmation,
        messages=_messages_around(proposal),
        trace=_trace_for(proposal),
        reviews=reviews,
    )


def _messages_around(proposal: Proposal) -> list[Message]:
    said = Message.objects.filter(
        conversation=proposal.conversation_id,
        role__in=[Message.Role.CUSTOMER, Message.Role.ASSISTANT],
    ).exclude(text="", ui_action__isnull=True)
    before = said.filter(created_at__lte=proposal.created_at).order_by("-id")[:MESSAGES_BEFORE]
    after = said.filter(created_at__gt=proposal.created_at).order_by("id")[:MESSAGES_AFTER]
    return sorted([*before, *after], key=lambda message: message.pk)


def _trace_for(proposal: Proposal) -> list[ToolCallTrace]:
    """The proposal's own rows (proposed, confirmed, executed, retries, replays), and
    before them the conversation's rows that belong to no proposal (reads, denials,
    flags) up to the execution. Other proposals' rows are another action's story."""
    own = list(ToolCallTrace.objects.filter(proposal=proposal).select_related("approver", "proposer"))
    if not own:
        return []
    done = (ToolCallTrace.Event.EXECUTED, ToolCallTrace.Event.REPLAYED, ToolCallTrace.Event.FAILED)
    executed = [row.pk for row in own if row.event in done]
    until = executed[0] if executed else own[-1].pk
    context = (
        ToolCallTrace.objects.filter(
            conversation=proposal.conversation_id, proposal__isnull=True, pk__lt=until
        )
        .select_related("approver", "proposer")
        .order_by("-id")[:CONTEXT_TRACE_ROWS]
    )
    return sorted([*context, *own], key=lambda row: row.pk)
