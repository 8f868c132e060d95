"""Whatever the model sends, the harness answers with a structured result or error —
never an exception, never a write without a confirmation (G2, G3, G8)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import Card
from disputes.models import Dispute
from tools.specs import REGISTRY

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=12), children, max_size=3),
    max_leaves=8,
)
field_names = st.sampled_from(["month", "card", "transaction", "amount", "reason", "merchant",
                               "account_id", "customer", "next_action"]) | st.text(max_size=10)
arguments = st.dictionaries(field_names, json_values, max_size=5) | json_values
raw = arguments.map(lambda a: json.dumps(a)) | arguments | st.text(max_size=60)
names = st.sampled_from(list(REGISTRY)) | st.text(max_size=20) | st.none() | st.integers()
texts = st.sampled_from(["", "block my card 4242", "dispute T-1001", "dispute all of them",
                         "заблокируй карту 5505", "what did I spend?"])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=names, raw_arguments=raw, text=texts)
def test_any_call_gives_a_structured_answer_and_writes_nothing(
        alice_conversation, harness_for, name, raw_arguments, text):
    outcome = harness_for(alice_conversation, text).call(name, raw_arguments)
    message = json.loads(outcome.for_model())
    assert message["status"] in {"ok", "awaiting_confirmation", "error"}
    if message["status"] == "error":
        assert message["error"]["code"] and message["error"]["message"]
    assert not Card.objects.filter(status="blocked").exists()
    assert not Dispute.objects.exists()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(card=st.text(max_size=8), transaction=st.text(max_size=12),
       amount=st.text(max_size=14) | st.decimals(allow_nan=True).map(str), text=texts)
def test_plausible_write_arguments_never_write(alice_conversation, harness_for, card,
                                               transaction, amount, text):
    harness = harness_for(alice_conversation, text)
    for name, args in [("block_card", {"card": card}),
                       ("raise_dispute", {"transaction": transaction, "amount": amount,
                                          "reason": "not_recognised"})]:
        assert harness.call(name, args).status in {"awaiting_confirmation", "error"}
    assert not Card.objects.filter(status="blocked").exists()
    assert not Dispute.objects.exists()
