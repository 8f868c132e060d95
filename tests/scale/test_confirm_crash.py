"""A worker killed (SIGKILL) anywhere in a confirm leaves no action and a clickable
card, or one action and its stored result — never a card that waits (G5, G11).

The worker stops at a named fault point inside the confirm's transaction
(tools/proposals.py) and the test kills it there, holding its locks. Not marked
postgres: `.ci/run` runs this on SQLite (the test run's database file, shared
with the worker) and again on PostgreSQL.
"""

from __future__ import annotations

import os
import signal

import pytest

from accounts.models import Card
from bankbot.cards import proposal_card
from disputes.models import Dispute
from tests.scale.helpers import clicks_for, make_scale_customer, propose_block, propose_dispute, run_workers
from tools.models import Confirmation, Proposal, ToolCallTrace
from tools.proposals import proposal_confirm

pytestmark = pytest.mark.django_db(transaction=True)


def kill_when_stopped(process, line: str) -> None:
    if line.startswith("stopped-at "):
        os.kill(process.pid, signal.SIGKILL)


def confirm_here(proposal: Proposal):
    """The customer clicks again; this test's process is the other worker."""
    return proposal_confirm(
        user=proposal.customer.user, public_id=proposal.public_id, digest=proposal.args_digest
    )


def action_count() -> int:
    return Dispute.objects.count() + Card.objects.filter(status="blocked").count()


@pytest.mark.parametrize("point", ["before_service", "after_service", "before_commit"])
@pytest.mark.parametrize("tool", ["block_card", "raise_dispute"])
def test_a_worker_killed_inside_the_confirm_leaves_nothing_done_and_the_card_clickable(point, tool):
    customer = make_scale_customer(1, transactions=1)
    account = customer.accounts.get()
    proposal = (
        propose_block(customer, account.cards.get())
        if tool == "block_card"
        else propose_dispute(customer, account.transactions.get())
    )

    [killed] = run_workers([{"clicks": clicks_for(proposal), "stop_at": point}], on_line=kill_when_stopped)

    assert killed.killed and killed.results == [], killed.stderr
    proposal.refresh_from_db()
    assert proposal.status == "pending" and proposal.result is None
    assert proposal_card(proposal).state == "pending"  # Confirm and Decline are shown
    assert action_count() == 0
    assert not Confirmation.objects.exists()
    assert list(ToolCallTrace.objects.values_list("event", flat=True)) == ["proposed"]

    retry = confirm_here(proposal)

    assert retry.response["status"] == "executed" and not retry.replayed
    assert action_count() == 1
    assert Proposal.objects.get().status == "executed"


def test_a_worker_killed_after_the_commit_leaves_one_action_whose_result_a_retry_replays():
    customer = make_scale_customer(1, transactions=1)
    proposal = propose_dispute(customer, customer.accounts.get().transactions.get())

    [killed] = run_workers([{"clicks": clicks_for(proposal), "fault": "kill_before_response"}])

    assert killed.killed and killed.results == [], killed.stderr
    stored = Proposal.objects.get().result
    assert stored["status"] == "executed"
    assert Confirmation.objects.get().response == stored

    retry = confirm_here(proposal)

    assert retry.replayed and retry.response == stored
    assert Dispute.objects.count() == 1
    assert ToolCallTrace.objects.filter(event="executed").count() == 1
