"""What the disputes' tests share besides fixtures."""

from __future__ import annotations

from bankbot.models import Conversation, Message
from disputes.models import Dispute
from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_for
from tools.models import Proposal
from tools.proposals import proposal_confirm


def dispute_through_chat(
    conversation: Conversation, text: str, *, merchant: str, transaction: str, amount: str, reason: str
) -> Dispute:
    """What a customer does in the chat, minus the model: say it, let the harness
    look the transaction up and propose the dispute, then press Confirm."""
    Message.objects.create(conversation=conversation, role=Message.Role.CUSTOMER, text=text)
    ctx = action_context_for(
        conversation.customer.user,
        conversation,
        mandate=mandate_for(customer=conversation.customer, text=text),
    )
    harness = GuardedHarness(ctx)
    harness.call("find_transactions", {"merchant": merchant, "amount": None, "month": None})
    outcome = harness.call("raise_dispute", {"transaction": transaction, "amount": amount, "reason": reason})
    assert outcome.status == "awaiting_confirmation", outcome.message()
    proposal: Proposal = outcome.proposal
    Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        text=f"Please check and confirm: {proposal.summary}",
    )
    result = proposal_confirm(
        user=conversation.customer.user, public_id=proposal.public_id, digest=proposal.args_digest
    )
    assert result.response["status"] == "executed", result.response
    return Dispute.objects.get(reference=result.response["result"]["dispute_id"])
