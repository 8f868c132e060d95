"""Migration 0004 settles what the phased protocol left mid-way: such a proposal is
pending again with its confirmation and decision time; migration 0006 then finishes it
from what its key did, and a click replays that."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from disputes.models import Dispute
from disputes.services import dispute_open
from tools.models import Confirmation, Proposal
from tools.proposals import args_digest, proposal_confirm

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tools", "0003_alter_toolcalltrace_options")]
AFTER = [("tools", "0005_confirmation_keeps_the_response")]


def migrate(target=None):
    """To ``target`` (None: every app's latest) and the models as they were there."""
    executor = MigrationExecutor(connection)
    target = target or executor.loader.graph.leaf_nodes()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_it_makes_an_unfinished_execution_pending_with_its_key_and_0006_finishes_it(
    alice, alice_conversation
):
    old = migrate(BEFORE)
    OldProposal = old.get_model("tools", "Proposal")
    OldConfirmation = old.get_model("tools", "Confirmation")
    OldRecord = old.get_model("tools", "IdempotencyRecord")
    now = timezone.now()
    key, done_key = uuid.uuid4(), uuid.uuid4()
    args = {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"}

    def proposal(status, **fields):
        return OldProposal.objects.create(
            customer_id=alice.pk,
            conversation_id=alice_conversation.pk,
            tool="raise_dispute",
            args=args,
            args_digest=args_digest("raise_dispute", args),
            summary="Dispute",
            status=status,
            expires_at=now - timedelta(minutes=5),
            decided_at=now - timedelta(minutes=9),
            **fields,
        )

    stranded = proposal("confirmed")  # its worker died after the service committed
    OldConfirmation.objects.create(proposal=stranded, idempotency_key=key, approver_id=alice.user.pk)
    OldRecord.objects.create(
        key=key,
        customer_id=alice.pk,
        fingerprint="f",
        state="in_progress",
        locked_until=now,
        expires_at=now + timedelta(days=1),
    )
    dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="15000.00",
        reason="not_recognised",
        idempotency_key=key,
    )
    done = proposal("executed", result={"status": "executed", "result": {}})
    OldConfirmation.objects.create(proposal=done, idempotency_key=done_key, approver_id=alice.user.pk)
    OldRecord.objects.create(
        key=done_key,
        customer_id=alice.pk,
        fingerprint="f",
        state="completed",
        response={"status": "executed", "result": {}},
        expires_at=now + timedelta(days=1),
    )

    migrate(AFTER)

    # The live model, less the column a later migration adds (0009's proposed_by).
    stranded = Proposal.objects.defer("proposed_by").get(pk=stranded.pk)
    assert (stranded.status, stranded.result) == ("pending", None)
    assert stranded.decided_at is not None
    assert Confirmation.objects.get(proposal=stranded).idempotency_key == key
    assert list(
        Confirmation.objects.filter(response__isnull=False).values_list("idempotency_key", flat=True)
    ) == [done_key]
    assert Proposal.objects.defer("proposed_by").get(pk=done.pk).status == "executed"

    migrate()  # 0006: the dispute is found under the key

    stranded = Proposal.objects.get(pk=stranded.pk)
    assert stranded.status == "executed"
    assert stranded.result["result"]["dispute_id"] == Dispute.objects.get().reference
    outcome = proposal_confirm(user=alice.user, public_id=stranded.public_id, digest=stranded.args_digest)
    assert outcome.replayed and outcome.response == stranded.result
    assert Confirmation.objects.get(idempotency_key=key).response == outcome.response
    assert Dispute.objects.count() == 1
