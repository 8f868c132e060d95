"""Settle the confirmations the phased protocol left unfinished.

Migration 0004 set such a proposal back to pending, keeping its confirmation and its
``decided_at``, so that its next click would finish it with the confirmation's key.
Those are the only pending proposals with a ``decided_at`` and a confirmation. Each is
settled here by what its key did:

- found (the write recorded the key: ``Dispute.idempotency_key`` for ``raise_dispute``;
  for ``block_card`` ``Card.block_key``, or ``CardUnblock.block_key`` once the block
  was lifted since; ``CardUnblock.unblock_key`` for ``unblock_card``; on the
  proposal's own customer and target): the proposal is executed, and its response —
  on the proposal and on its confirmation, with the fingerprint and ``replay_until``
  ``idempotency_store`` writes — is rebuilt from that row in the shape the tool's
  result has, so a click replays it;
- not found: nothing was done under the key. The proposal is expired and its
  confirmation deleted (the customer asks again).

Each settled proposal gets one trace row saying so, with the clicker and the key.

The response is shaped by the tools' own result functions (``CardBlockResult``,
``CardUnblockResult``, ``dispute_as_dict``), which is live code: those read model
properties (``Card.masked``) that historical models lack. They are given unsaved
instances of the live models built from the historical rows' field values only; no
live query runs. The alternative, a copy of the shapes frozen here, could drift from
what the tools return today, and a replay must answer in the tool's shape. If those
functions change shape or go, this migration follows them or is squashed away.

Not reversible in substance: a deleted confirmation is not brought back (the reverse
is a no-op, as 0004's is).
"""

import json
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

SETTLED = "Settled by migration tools/0006, a confirmation the phased protocol left unfinished"


def _live_card(row, **values):
    """An unsaved live ``Card`` holding the historical row's values (and ``values``):
    what the result functions read, ``masked`` included. Never saved."""
    from accounts.models import Card

    fields = {"brand": row.brand, "last4": row.last4, "status": row.status, "blocked_at": row.blocked_at}
    return Card(**{**fields, **values})


def _block_card(apps, proposal, key):
    from accounts.services import CardBlockResult

    Card = apps.get_model("accounts", "Card")
    CardUnblock = apps.get_model("accounts", "CardUnblock")
    mine = {"account__customer_id": proposal.customer_id, "last4": proposal.args.get("card")}
    card = Card.objects.filter(block_key=key, **mine).first()
    if card is not None:
        return CardBlockResult(card=_live_card(card), changed=True).as_dict()
    lifted = (
        CardUnblock.objects.select_related("card")
        .filter(block_key=key, **{f"card__{name}": value for name, value in mine.items()})
        .first()
    )
    if lifted is not None:  # blocked under the key, unblocked since: the block's result
        card = _live_card(lifted.card, status="blocked", blocked_at=lifted.blocked_at)
        return CardBlockResult(card=card, changed=True).as_dict()
    return None


def _unblock_card(apps, proposal, key):
    from accounts.services import CardUnblockResult

    CardUnblock = apps.get_model("accounts", "CardUnblock")
    lifted = (
        CardUnblock.objects.select_related("card")
        .filter(
            unblock_key=key,
            card__account__customer_id=proposal.customer_id,
            card__last4=proposal.args.get("card"),
        )
        .first()
    )
    if lifted is None:
        return None
    return CardUnblockResult(card=_live_card(lifted.card), changed=True).as_dict()


def _raise_dispute(apps, proposal, key):
    from accounts.models import Transaction as LiveTransaction
    from disputes.models import Dispute as LiveDispute
    from disputes.services import dispute_as_dict

    Dispute = apps.get_model("disputes", "Dispute")
    row = (
        Dispute.objects.select_related("transaction")
        .filter(
            idempotency_key=key,
            customer_id=proposal.customer_id,
            transaction__reference=str(proposal.args.get("transaction", "")).strip().upper(),
        )
        .first()
    )
    if row is None:
        return None
    dispute = LiveDispute(
        reference=row.reference,
        status=row.status,
        amount=row.amount,
        transaction=LiveTransaction(reference=row.transaction.reference),
    )
    return dispute_as_dict(dispute)


EFFECTS = {"block_card": _block_card, "unblock_card": _unblock_card, "raise_dispute": _raise_dispute}


def settle_unfinished_clicks(apps, schema_editor):
    Proposal = apps.get_model("tools", "Proposal")
    Confirmation = apps.get_model("tools", "Confirmation")
    ToolCallTrace = apps.get_model("tools", "ToolCallTrace")
    now = timezone.now()
    unfinished = Confirmation.objects.select_related("proposal").filter(
        proposal__status="pending", proposal__decided_at__isnull=False
    )
    for confirmation in unfinished:
        proposal, key = confirmation.proposal, confirmation.idempotency_key
        effect = EFFECTS.get(proposal.tool)
        result = effect(apps, proposal, key) if effect is not None else None
        trace = {
            "tool": proposal.tool,
            "customer_id": proposal.customer_id,
            "conversation_id": proposal.conversation_id,
            "proposal": proposal,
            "validated_args": proposal.args,
            "idempotency_key": key,
            "approver_id": confirmation.approver_id,
        }
        if result is None:
            ToolCallTrace.objects.create(
                event="expired",
                decision="deny",
                reason_code="proposal_expired",
                reason=f"{SETTLED}: confirmed at {confirmation.created_at.isoformat()}, "
                "nothing was done under its key; the customer asks again.",
                **trace,
            )
            confirmation.delete()
            proposal.status, proposal.result, proposal.decided_at = "expired", None, None
            proposal.save(update_fields=["status", "result", "decided_at"])
            continue
        # One key order, as the confirm stores it (tools/proposals.py, _canonical).
        response = json.loads(json.dumps({"status": "executed", "result": result}, sort_keys=True))
        proposal.status, proposal.result = "executed", response
        proposal.save(update_fields=["status", "result"])
        confirmation.fingerprint = f"{proposal.tool}:{proposal.args_digest}"
        confirmation.response = response
        confirmation.replay_until = now + timedelta(hours=settings.BANKBOT_IDEMPOTENCY_TTL_HOURS)
        confirmation.save(update_fields=["fingerprint", "response", "replay_until"])
        ToolCallTrace.objects.create(
            event="executed",
            decision="ok",
            result=response,
            reason=f"{SETTLED}: its write was found under its key.",
            **trace,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tools", "0005_confirmation_keeps_the_response"),
        ("accounts", "0005_card_blocked_by"),
        ("disputes", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(settle_unfinished_clicks, migrations.RunPython.noop),
    ]
