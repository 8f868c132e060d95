"""Migration 0006 settles what 0004 left pending for a later click: a proposal whose
write is found under its confirmation's key is executed, with the tool's result rebuilt
from the row (a click replays it); one whose write is not found is expired and its
confirmation deleted (the customer asks again)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Card, CardUnblock
from accounts.services import CardBlockResult, CardUnblockResult, card_block, card_unblock_own
from disputes.models import Dispute
from disputes.services import dispute_as_dict, dispute_open
from tests.tools.test_migration_0004 import migrate
from tools.models import Confirmation, Proposal, ToolCallTrace
from tools.proposals import ProposalExpired, args_digest, proposal_confirm

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tools", "0005_confirmation_keeps_the_response")]

ARGS = {
    "raise_dispute": {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"},
    "block_card": {"card": "4242"},
    "unblock_card": {"card": "4242"},
}


def canonical(response: dict) -> dict:
    """One key order, as the confirm stores a response."""
    return json.loads(json.dumps(response, sort_keys=True))


def unfinished(old, customer, conversation, tool: str, key: uuid.UUID, args: dict | None = None):
    """What 0004 made of a click the phased protocol left mid-way: pending, with its
    decision time and its confirmation (no response), long past its expiry."""
    now = timezone.now()
    args = args or ARGS[tool]
    proposal = old.get_model("tools", "Proposal").objects.create(
        customer_id=customer.pk,
        conversation_id=conversation.pk,
        tool=tool,
        args=args,
        args_digest=args_digest(tool, args),
        summary=tool,
        status="pending",
        expires_at=now - timedelta(minutes=50),
        decided_at=now - timedelta(hours=1),
    )
    old.get_model("tools", "Confirmation").objects.create(
        proposal=proposal, idempotency_key=key, approver_id=customer.user.pk
    )
    # The live model, less the column a later migration adds (0009's proposed_by).
    return Proposal.objects.defer("proposed_by").get(pk=proposal.pk)


def do_the_write(customer, tool: str, key: uuid.UUID) -> None:
    """The service ran under the key before its worker died (what 0004 could not tell)."""
    if tool == "raise_dispute":
        dispute_open(customer=customer, transaction_reference="T-1001", amount="15000.00",
                     reason="not_recognised", idempotency_key=key)  # fmt: skip
    elif tool == "block_card":
        card_block(customer=customer, last4="4242", idempotency_key=key)
    else:
        card_block(customer=customer, last4="4242", idempotency_key=uuid.uuid4())
        card_unblock_own(customer=customer, last4="4242", idempotency_key=key)


def the_tools_result(tool: str, key: uuid.UUID) -> dict:
    """What the tool returns for that write, shaped by its own code from today's row."""
    if tool == "raise_dispute":
        result = dispute_as_dict(Dispute.objects.get(idempotency_key=key))
    elif tool == "block_card":
        result = CardBlockResult(card=Card.objects.get(block_key=key), changed=True).as_dict()
    else:
        result = CardUnblockResult(card=CardUnblock.objects.get(unblock_key=key).card, changed=True).as_dict()
    return canonical({"status": "executed", "result": result})


def actions() -> tuple:
    return (
        list(Dispute.objects.values_list("pk", "status")),
        list(Card.objects.order_by("pk").values_list("status", "block_key")),
        CardUnblock.objects.count(),
    )


def settled_trace(proposal) -> ToolCallTrace:
    [row] = ToolCallTrace.objects.filter(proposal=proposal)
    return row


@pytest.mark.parametrize("tool", ["raise_dispute", "block_card", "unblock_card"])
def test_a_write_found_under_the_key_is_executed_with_its_result_and_a_click_replays_it(
    alice, alice_conversation, tool
):
    old = migrate(BEFORE)
    key = uuid.uuid4()
    proposal = unfinished(old, alice, alice_conversation, tool, key)
    do_the_write(alice, tool, key)
    expected = the_tools_result(tool, key)

    migrate()

    proposal.refresh_from_db()
    confirmation = Confirmation.objects.get(proposal=proposal)
    assert (proposal.status, proposal.result) == ("executed", expected)
    assert proposal.decided_at is not None  # when the customer clicked
    assert (confirmation.idempotency_key, confirmation.response) == (key, expected)
    assert confirmation.fingerprint == f"{tool}:{proposal.args_digest}"
    assert confirmation.replay_until > timezone.now() + timedelta(hours=23)
    trace = settled_trace(proposal)
    assert (trace.event, trace.result, trace.idempotency_key, trace.approver) == (
        "executed",
        expected,
        key,
        alice.user,
    )
    before = actions()

    click = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)

    assert click.replayed and click.response == expected
    assert actions() == before  # nothing ran again


@pytest.mark.parametrize("tool", ["raise_dispute", "block_card", "unblock_card"])
def test_a_write_not_found_under_the_key_expires_and_its_confirmation_goes(alice, alice_conversation, tool):
    old = migrate(BEFORE)
    key = uuid.uuid4()
    proposal = unfinished(old, alice, alice_conversation, tool, key)
    do_the_write(alice, tool, uuid.uuid4())  # the same write, under another key
    before = actions()

    migrate()

    proposal.refresh_from_db()
    assert (proposal.status, proposal.result, proposal.decided_at) == ("expired", None, None)
    assert not Confirmation.objects.filter(proposal=proposal).exists()
    trace = settled_trace(proposal)
    assert (trace.event, trace.reason_code, trace.idempotency_key, trace.approver) == (
        "expired",
        "proposal_expired",
        key,
        alice.user,
    )
    with pytest.raises(ProposalExpired):
        proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    assert actions() == before


def test_a_block_lifted_since_is_found_and_answers_as_the_block_did(alice, alice_conversation):
    old = migrate(BEFORE)
    key = uuid.uuid4()
    proposal = unfinished(old, alice, alice_conversation, "block_card", key)
    card_block(customer=alice, last4="4242", idempotency_key=key)
    blocked = CardBlockResult(card=Card.objects.get(block_key=key), changed=True).as_dict()
    card_unblock_own(
        customer=alice, last4="4242", idempotency_key=uuid.uuid4()
    )  # the key moves to the record

    migrate()

    proposal.refresh_from_db()
    assert proposal.status == "executed"
    assert proposal.result == canonical({"status": "executed", "result": blocked})
    assert Card.objects.get(last4="4242").status == "active"  # the unblock stands


def test_it_settles_only_those_rows_and_only_with_the_proposals_own_write(
    alice, bob, alice_conversation, bob_conversation
):
    old = migrate(BEFORE)
    key, bobs = uuid.uuid4(), uuid.uuid4()
    # Under their keys, but another card of hers and someone else's card: not theirs.
    other_card = unfinished(old, alice, alice_conversation, "block_card", key, {"card": "5505"})
    card_block(customer=alice, last4="4242", idempotency_key=key)
    other_customer = unfinished(old, alice, alice_conversation, "block_card", bobs, {"card": "1111"})
    card_block(customer=bob, last4="1111", idempotency_key=bobs)
    # Controls: a click that finished (its write is nowhere), a proposal nobody clicked.
    done = unfinished(old, bob, bob_conversation, "block_card", uuid.uuid4(), {"card": "2222"})
    Proposal.objects.filter(pk=done.pk).update(status="executed", result={"status": "executed", "result": {}})
    waiting = unfinished(old, bob, bob_conversation, "block_card", uuid.uuid4(), {"card": "2222"})
    Confirmation.objects.filter(proposal=waiting).delete()
    Proposal.objects.filter(pk=waiting.pk).update(decided_at=None)
    controls = Proposal.objects.defer("proposed_by").filter(pk__in=[done.pk, waiting.pk])
    untouched = {p.pk: (p.status, p.result, p.decided_at) for p in controls}

    migrate()

    assert Proposal.objects.get(pk=other_card.pk).status == "expired"
    assert Proposal.objects.get(pk=other_customer.pk).status == "expired"
    assert {p.pk: (p.status, p.result, p.decided_at) for p in controls} == untouched
    assert Confirmation.objects.get(proposal=done).response is None
    assert not ToolCallTrace.objects.filter(proposal__in=controls).exists()
    assert Card.objects.get(last4="4242").block_key == key
    assert Card.objects.get(last4="1111").block_key == bobs
