"""Whatever the model sends, the harness answers with a structured result or error —
never an exception, never a write without a confirmation (G2, G3, G8). Whatever
click arrives, only the owner's click on the card as shown acts, once (G3, G4, G5).

How many cases: the Hypothesis profile (tests/conftest.py; "ci" in .ci/run)."""

from __future__ import annotations

import json

from django.contrib.auth.models import AnonymousUser
from hypothesis import assume, given
from hypothesis import strategies as st

from accounts.models import Card
from disputes.models import Dispute
from errors import DomainError
from tests.tools.helpers import fresh_block_proposal
from tools.catalog import CATALOG
from tools.models import Confirmation, Proposal, ToolCallTrace
from tools.proposals import ConfirmOutcome, args_digest, proposal_confirm, proposal_decline

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=12), children, max_size=3)
    ),
    max_leaves=8,
)
field_names = st.sampled_from(
    ["month", "card", "transaction", "amount", "reason", "merchant", "account_id", "customer", "next_action"]
) | st.text(max_size=10)
arguments = st.dictionaries(field_names, json_values, max_size=5) | json_values
raw = arguments.map(lambda a: json.dumps(a)) | arguments | st.text(max_size=60)
names = st.sampled_from(list(CATALOG)) | st.text(max_size=20) | st.none() | st.integers()
texts = st.sampled_from(
    [
        "",
        "block my card 4242",
        "dispute T-1001",
        "dispute all of them",
        "заблокируй карту 5505",
        "what did I spend?",
    ]
)


@given(name=names, raw_arguments=raw, text=texts)
def test_any_call_gives_a_structured_answer_and_writes_nothing(
    alice_conversation, harness_for, name, raw_arguments, text
):
    outcome = harness_for(alice_conversation, text).call(name, raw_arguments)
    message = json.loads(outcome.for_model())
    assert message["status"] in {"ok", "awaiting_confirmation", "error"}
    if message["status"] == "error":
        assert message["error"]["code"] and message["error"]["message"]
    assert not Card.objects.filter(status="blocked").exists()
    assert not Dispute.objects.exists()


@given(
    card=st.text(max_size=8),
    transaction=st.text(max_size=12),
    amount=st.text(max_size=14) | st.decimals(allow_nan=True).map(str),
    text=texts,
)
def test_plausible_write_arguments_never_write(
    alice_conversation, harness_for, card, transaction, amount, text
):
    harness = harness_for(alice_conversation, text)
    for name, args in [
        ("block_card", {"card": card}),
        ("raise_dispute", {"transaction": transaction, "amount": amount, "reason": "not_recognised"}),
    ]:
        assert harness.call(name, args).status in {"awaiting_confirmation", "error"}
    assert not Card.objects.filter(status="blocked").exists()
    assert not Dispute.objects.exists()


def last_trace_row() -> int:
    return ToolCallTrace.objects.order_by("-id").values_list("id", flat=True).first() or 0


def put_in_state(proposal: Proposal, state: str) -> None:
    owner = proposal.customer.user
    if state == "executed":
        proposal_confirm(user=owner, public_id=proposal.public_id, digest=proposal.args_digest)
    elif state == "declined":
        proposal_decline(user=owner, public_id=proposal.public_id)
    elif state == "expired":
        Proposal.objects.filter(pk=proposal.pk).update(expires_at=proposal.created_at)


@given(
    clicker=st.sampled_from(["alice", "bob", "staff", "anonymous"]),
    action=st.sampled_from(["confirm", "decline"]),
    target=st.sampled_from(["this", "bobs"]) | st.uuids(),
    digest=st.sampled_from(["shown", "other"]) | st.text(max_size=70),
    state=st.sampled_from(["pending", "executed", "declined", "expired"]),
)
def test_any_click_acts_only_when_it_is_the_owners_on_the_card_as_shown(
    alice, alice_conversation, bob, bob_conversation, staff, clicker, action, target, digest, state
):
    assume(not (clicker == "bob" and target == "bobs"))  # his own card: not this test's
    proposal = fresh_block_proposal(alice, alice_conversation)
    put_in_state(proposal, state)
    bobs = Proposal.objects.filter(customer=bob).first() or fresh_block_proposal(
        bob, bob_conversation, "1111"
    )
    user = {"alice": alice.user, "bob": bob.user, "staff": staff, "anonymous": AnonymousUser()}[clicker]
    public_id = {"this": proposal.public_id, "bobs": bobs.public_id}.get(target, target)
    digest = {"shown": proposal.args_digest, "other": args_digest("block_card", {"card": "5505"})}.get(
        digest, digest
    )
    confirmed = Confirmation.objects.filter(proposal=proposal).exists
    before = (Proposal.objects.get(pk=proposal.pk).status, confirmed(), last_trace_row())

    try:
        answer = (
            proposal_confirm(user=user, public_id=public_id, digest=digest)
            if action == "confirm"
            else proposal_decline(user=user, public_id=public_id)
        )
    except DomainError as error:
        answer = error

    owners_click = (
        clicker == "alice"
        and public_id == proposal.public_id
        and (action == "decline" or digest == proposal.args_digest)
    )
    status = Proposal.objects.get(pk=proposal.pk).status
    card = Card.objects.get(account__customer=alice, last4="4242")
    assert last_trace_row() > before[2]  # every click is on the record
    if not owners_click:
        assert isinstance(answer, DomainError), answer
        assert (status, confirmed()) == before[:2]
    elif action == "confirm" and state in ("pending", "executed"):
        assert isinstance(answer, ConfirmOutcome) and answer.replayed == (state == "executed")
        assert status == "executed" and card.status == "blocked"
        assert card.block_key == Proposal.objects.get(pk=proposal.pk).confirmation.idempotency_key
    elif action == "decline" and state in ("pending", "declined"):
        assert isinstance(answer, Proposal) and status == "declined"
    else:  # confirming a declined or expired card, declining a done or expired one
        assert isinstance(answer, DomainError), answer
        assert status == state and confirmed() == before[1]
    assert Proposal.objects.get(pk=bobs.pk).status == "pending"
    assert not Card.objects.filter(account__customer=bob, status="blocked").exists()
