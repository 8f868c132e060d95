"""Migration 0005 folds each idempotency record into its confirmation: a click made
before it still replays its stored response, and the record's table is gone."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.tools.test_migration_0004 import migrate
from tools.models import Confirmation
from tools.proposals import args_digest, proposal_confirm

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tools", "0004_confirm_in_one_transaction")]


def test_a_click_made_before_it_replays_its_stored_response_after_it(alice, alice_conversation):
    old = migrate(BEFORE)
    OldProposal = old.get_model("tools", "Proposal")
    OldConfirmation = old.get_model("tools", "Confirmation")
    OldRecord = old.get_model("tools", "IdempotencyRecord")
    now = timezone.now()
    args = {"card": "4242"}
    response = {"result": {"card": "4242", "status": "blocked"}, "status": "executed"}
    proposal = OldProposal.objects.create(
        customer_id=alice.pk,
        conversation_id=alice_conversation.pk,
        tool="block_card",
        args=args,
        args_digest=args_digest("block_card", args),
        summary="Block card",
        status="executed",
        result=response,
        expires_at=now + timedelta(minutes=5),
        decided_at=now,
    )
    key = uuid.uuid4()
    OldConfirmation.objects.create(proposal=proposal, idempotency_key=key, approver_id=alice.user.pk)
    fingerprint = f"block_card:{proposal.args_digest}"
    OldRecord.objects.create(
        key=key,
        customer_id=alice.pk,
        fingerprint=fingerprint,
        response=response,
        expires_at=now + timedelta(days=1),
    )
    OldRecord.objects.create(
        key=uuid.uuid4(),
        customer_id=alice.pk,
        fingerprint="x:y",
        response={},
        expires_at=now + timedelta(days=1),
    )  # no click of its own

    migrate()

    confirmation = Confirmation.objects.get()
    assert (confirmation.idempotency_key, confirmation.fingerprint) == (key, fingerprint)
    assert confirmation.response == response
    assert confirmation.replay_until > now
    assert "tools_idempotencyrecord" not in connection.introspection.table_names()
    replay = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    assert replay.replayed and replay.response == response
