"""Twenty simultaneous clicks make one action, and all twenty see the same answer (G5)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from accounts.models import Card
from disputes.models import Dispute
from tools.models import Confirmation, ToolCallTrace
from tools.proposals import proposal_confirm

pytestmark = pytest.mark.django_db(transaction=True)


def confirm_from_threads(user, proposal, count: int = 20) -> tuple[list, list]:
    responses, errors = [], []
    start = threading.Barrier(count)

    def click() -> None:
        try:
            start.wait()
            outcome = proposal_confirm(user=user, public_id=proposal.public_id, digest=proposal.args_digest)
            responses.append(outcome)
        except Exception as error:  # collected, and the test fails on any
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses, errors


def test_twenty_clicks_at_once_open_one_dispute(alice_conversation, harness_for):
    proposal = (
        harness_for(alice_conversation, "dispute the Magnum charge")
        .call("raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "not_recognised"})
        .proposal
    )
    responses, errors = confirm_from_threads(alice_conversation.customer.user, proposal)
    assert errors == []
    assert len(responses) == 20
    assert Dispute.objects.count() == 1
    assert Confirmation.objects.count() == 1
    assert len({str(r.response) for r in responses}) == 1, {str(r.response) for r in responses}
    assert sum(not r.replayed for r in responses) == 1
    assert ToolCallTrace.objects.filter(event="executed").count() == 1


def test_twenty_clicks_at_once_block_the_card_once(alice_conversation, harness_for):
    proposal = harness_for(alice_conversation, "block 4242").call("block_card", {"card": "4242"}).proposal
    responses, errors = confirm_from_threads(alice_conversation.customer.user, proposal)
    assert errors == []
    assert {r.response["result"]["changed"] for r in responses} == {True}
    assert Card.objects.get(last4="4242").status == "blocked"
    assert ToolCallTrace.objects.filter(event="executed").count() == 1
