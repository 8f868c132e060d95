"""A worker killed (SIGKILL) after a service refused inside a confirm, before the commit,
leaves nothing: no stored refusal, none of the run's writes, a clickable card (G5, G11).
The next click stores the refusal, and the one after replays it.

The same style as test_confirm_crash.py: the worker stops at a named fault point inside
the confirm's transaction (tools/proposals.py) and the test kills it there.
"""

from __future__ import annotations

import uuid

import pytest

from accounts.models import Card
from bankbot.cards import proposal_card
from disputes.models import Dispute
from disputes.services import dispute_open
from tests.scale.helpers import clicks_for, make_scale_customer, propose_dispute, run_workers
from tests.scale.test_confirm_crash import confirm_here, kill_when_stopped
from tools.models import Confirmation, Proposal, ToolCallTrace

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("point", ["after_service", "before_commit"])
@pytest.mark.parametrize("run", ["refuses", "blocks_then_refuses"])
def test_a_worker_killed_after_a_refusal_before_the_commit_leaves_nothing_and_the_next_click_stores_it(
    point, run
):
    customer = make_scale_customer(1, transactions=1)
    txn = customer.accounts.get().transactions.get()
    proposal = propose_dispute(customer, txn)
    existing = dispute_open(  # another confirmation got there first: the click will be refused
        customer=customer,
        transaction_reference=txn.reference,
        amount=txn.amount,
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    ).dispute
    job = {"clicks": clicks_for(proposal), "stop_at": point}
    if run == "blocks_then_refuses":
        job["fault"] = "block_then_dispute"  # the run blocks the card before the refusal

    [killed] = run_workers([job], on_line=kill_when_stopped)

    assert killed.killed and killed.results == [], killed.stderr
    proposal.refresh_from_db()
    assert proposal.status == "pending" and proposal.result is None
    assert proposal_card(proposal).state == "pending"  # Confirm and Decline are shown
    assert not Confirmation.objects.exists()
    assert list(Dispute.objects.values_list("pk", flat=True)) == [existing.pk]
    assert not Card.objects.filter(status="blocked").exists()
    assert list(ToolCallTrace.objects.values_list("event", flat=True)) == ["proposed"]

    stored = confirm_here(proposal)

    assert stored.response["status"] == "failed" and not stored.replayed
    assert stored.response["error"]["code"] == "dispute_already_open"
    assert Proposal.objects.get().status == "failed"
    assert Confirmation.objects.get().response == stored.response

    replayed = confirm_here(proposal)

    assert replayed.replayed and replayed.response == stored.response
    assert Dispute.objects.count() == 1
    assert list(ToolCallTrace.objects.values_list("event", flat=True)) == ["proposed", "failed", "replayed"]
