"""Confirm, decline, replay and expiry on one proposal, from several threads at once,
in any order: the proposal always ends in an allowed state (G3, G4, G5, G9).

Allowed: executed, with one confirmation, one action under its key and one stored
result that every confirm was answered with; or declined, expired or still
pending, with no confirmation and no action. Each thread has its own database
connection, as each request has in a worker.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import Card
from errors import DomainError
from tests.threads import run_at_once
from tests.tools.helpers import fresh_block_proposal
from tools.models import Confirmation, Proposal
from tools.proposals import ConfirmOutcome, proposal_confirm, proposal_decline

pytestmark = pytest.mark.django_db(transaction=True)

STEPS = st.sampled_from(["confirm", "decline", "expire", "bob confirms", "bob declines"])
# A thread's steps, in order; the threads start together.
PLANS = st.lists(st.lists(STEPS, min_size=1, max_size=3), min_size=2, max_size=4)
REFUSALS = {"proposal_not_found", "proposal_expired", "proposal_declined", "proposal_not_pending"}


def play(proposal: Proposal, alice, bob, steps: list[str]) -> list[tuple[str, object]]:
    answers = []
    for step in steps:
        user = bob.user if step.startswith("bob") else alice.user
        try:
            if step == "expire":  # the clock passing the proposal's expiry
                answer: object = Proposal.objects.filter(pk=proposal.pk).update(
                    expires_at=proposal.created_at - timedelta(seconds=1)
                )
            elif step.endswith(("confirm", "confirms")):
                answer = proposal_confirm(
                    user=user, public_id=proposal.public_id, digest=proposal.args_digest
                )
            else:
                answer = proposal_decline(user=user, public_id=proposal.public_id)
        except DomainError as error:
            answer = error
        answers.append((step, answer))
    return answers


# Each case starts threads: a tenth of the profile's cases (tests/conftest.py).
@settings(max_examples=max(20, settings.default.max_examples // 10))
@given(plan=PLANS)
def test_any_interleaving_ends_in_one_action_with_its_result_or_in_none(alice, alice_conversation, bob, plan):
    proposal = fresh_block_proposal(alice, alice_conversation)

    results, errors = run_at_once([lambda steps=steps: play(proposal, alice, bob, steps) for steps in plan])

    assert errors == []
    answers = [answer for thread in results for answer in thread]  # type: ignore[union-attr]
    confirmed = [a for _, a in answers if isinstance(a, ConfirmOutcome)]
    declined = [a for _, a in answers if isinstance(a, Proposal)]
    refused = [a for _, a in answers if isinstance(a, DomainError)]
    assert {e.code for e in refused} <= REFUSALS, [e.as_dict() for e in refused]
    proposal.refresh_from_db()
    confirmations = Confirmation.objects.filter(proposal=proposal)
    card = Card.objects.get(account__customer=alice, last4="4242")
    events = Counter(proposal.trace.values_list("event", flat=True))

    if proposal.status == "executed":
        [confirmation] = confirmations
        assert card.status == "blocked" and card.block_key == confirmation.idempotency_key
        assert confirmation.response == proposal.result
        assert [o.response for o in confirmed] == [proposal.result] * len(confirmed)
        assert sum(not o.replayed for o in confirmed) == 1
        assert (events["executed"], declined) == (1, [])
        assert proposal.trace.get(event="executed").approver == alice.user
    else:
        assert proposal.status in {"declined", "expired", "pending"}, proposal.status
        assert not confirmations.exists()
        assert card.status == "active" and confirmed == []
        assert events["executed"] == 0
        assert bool(declined) == (proposal.status == "declined")
    if proposal.status == "pending":  # nobody but bob clicked, or only the clock moved
        assert not any(step in ("confirm", "decline") for steps in plan for step in steps)
    # Every click is on the record: one row each (a first confirm: executed, naming who clicked).
    clicks = sum(step != "expire" for steps in plan for step in steps)
    assert sum(events.values()) - events["proposed"] == clicks
