"""Exactly once under load, across two worker processes sharing one PostgreSQL (G5).

200 simultaneous clicks on 20 proposals → 20 actions; every other click gets the
stored result, marked replayed, byte for byte the first answer. Confirmations
of different proposals for one transaction → one open dispute, the rest a clear
error naming it.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from accounts.models import Card
from disputes.models import Dispute
from tests.scale.helpers import clicks_for, make_scale_customer, propose_block, propose_dispute, run_workers
from tools.models import Confirmation, Proposal, ToolCallTrace

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLICKS_PER_PROPOSAL = 10


def split_between_two_workers(clicks: list[dict]) -> list[dict]:
    """Half of each proposal's clicks to each process, in a shuffled order."""
    halves: list[list[dict]] = [[], []]
    for index, click in enumerate(clicks):
        halves[index % 2].append(click)
    rng = random.Random(8)
    for half in halves:
        rng.shuffle(half)
    return [{"clicks": half} for half in halves]


def test_it_executes_twenty_proposals_once_from_two_hundred_clicks_in_two_workers(scale_customers):
    proposals = []
    for customer in scale_customers:
        account = customer.accounts.get()
        proposals += [propose_dispute(customer, txn) for txn in account.transactions.all()]
        proposals.append(propose_block(customer, account.cards.get()))
    assert len(proposals) == 20
    clicks = [c for p in proposals for c in clicks_for(p, CLICKS_PER_PROPOSAL)]

    runs = run_workers(split_between_two_workers(clicks))

    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    answers = [a for r in runs for a in r.results]
    assert len(answers) == 200
    assert [a for a in answers if "response" not in a] == []
    by_proposal = defaultdict(list)
    for answer in answers:
        by_proposal[answer["public_id"]].append(answer)
    for public_id, group in by_proposal.items():
        assert len(group) == CLICKS_PER_PROPOSAL
        assert sorted(a["replayed"] for a in group) == [False] + [True] * 9, public_id
        # The stored result, byte for byte what the first click was told.
        assert len({a["response_json"] for a in group}) == 1, {a["response_json"] for a in group}
        assert group[0]["response"]["status"] == "executed"
    assert Dispute.objects.count() == 16
    assert Card.objects.filter(status="blocked").count() == 4
    assert Confirmation.objects.filter(response__status="executed").count() == 20
    assert set(Proposal.objects.values_list("status", flat=True)) == {"executed"}
    assert ToolCallTrace.objects.filter(event="executed").count() == 20
    assert ToolCallTrace.objects.filter(event="replayed").count() == 180


def test_it_opens_one_dispute_when_confirmations_for_one_transaction_race(db):
    customer = make_scale_customer(9, transactions=1)
    txn = customer.accounts.get().transactions.get()
    # The model proposed the same dispute in ten conversations; each card gets its click.
    proposals = [propose_dispute(customer, txn) for _ in range(10)]
    clicks = [c for p in proposals for c in clicks_for(p)]

    runs = run_workers(split_between_two_workers(clicks))

    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    answers = [a["response"] for r in runs for a in r.results]
    assert len(answers) == 10
    opened = [a for a in answers if a["status"] == "executed"]
    refused = [a for a in answers if a["status"] == "failed"]
    assert len(opened) == 1 and len(refused) == 9, answers
    dispute = Dispute.objects.get()
    assert dispute.is_open
    assert opened[0]["result"]["dispute_id"] == dispute.reference
    assert {a["error"]["code"] for a in refused} == {"dispute_already_open"}
    assert all(dispute.reference in a["error"]["message"] for a in refused), json.dumps(refused)
    assert Confirmation.objects.count() == 10
    assert ToolCallTrace.objects.filter(event="executed").count() == 1
    assert ToolCallTrace.objects.filter(event="failed").count() == 9
