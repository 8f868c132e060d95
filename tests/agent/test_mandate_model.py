"""The optional model mandate extractor sees only the customer's words and can add
nothing the customer did not write (G7)."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from bankbot.llm.config import ModelConfig
from bankbot.mandate_model import mandate_with_model
from tests.agent.fakes import ScriptedModel, call, json_reply, text
from tools.models import Proposal

EXTRACTION = {"operations": ["block_card"], "cards": ["4242", "9999"],
              "transactions": ["T-1001", "T-7777"], "amounts": ["15 000", "123"]}


def test_it_keeps_only_targets_written_in_the_customers_text():
    model = ScriptedModel(json_reply(json.dumps(EXTRACTION)))
    mandate = mandate_with_model(model.client(), "gpt-test",
                                 ["my card 4242 was swiped, and T-1001 of 15 000 looks wrong"])
    assert mandate.operations == {"block_card"}
    assert mandate.cards == {"4242"}
    assert mandate.transactions == {"T-1001"}
    assert {str(a) for a in mandate.amounts} == {"15000.00"}


def test_it_sends_the_model_only_the_customers_words():
    model = ScriptedModel(json_reply(json.dumps(EXTRACTION)))
    mandate_with_model(model.client(), "gpt-test", ["hello", "my card was stolen"])
    sent = model.requests[0]["messages"]
    assert [m["role"] for m in sent] == ["system", "user"]
    assert sent[1]["content"] == "hello\nmy card was stolen"
    assert model.requests[0]["response_format"]["type"] == "json_schema"


def test_a_failed_extraction_leaves_the_parsers_mandate():
    model = ScriptedModel(json_reply("not json at all"))
    assert mandate_with_model(model.client(), "gpt-test", ["block 4242"]).operations == frozenset()


@pytest.mark.parametrize("finish", ["length", "content_filter"])
def test_an_extraction_cut_off_or_withheld_leaves_the_parsers_mandate(finish):
    # The SDK's parse raises its own error classes here, outside openai.APIError.
    model = ScriptedModel(json_reply('{"operations": ["block_card"], "cards": ["42', finish))
    assert mandate_with_model(model.client(), "gpt-test", ["block 4242"]).operations == frozenset()


@override_settings(BANKBOT_MANDATE_EXTRACTOR="model",
                   BANKBOT_MODEL_CONFIG=ModelConfig(model="gpt-test", api_key="k"))
def test_the_agent_uses_it_for_paraphrased_requests(alice_conversation, say):
    from accounts.models import Card

    Card.objects.filter(last4="5505").update(status="blocked", blocked_at="2026-01-01T00:00Z")
    model = ScriptedModel(json_reply('{"operations": ["block_card"], "cards": [], '
                                     '"transactions": [], "amounts": []}'),
                          call("block_card", {"card": "4242"}), text("Please confirm."))
    say(alice_conversation, "someone swiped my wallet with the plastic in it",
        client=model.client())
    assert Proposal.objects.get().args == {"card": "4242"}


@override_settings(BANKBOT_MANDATE_EXTRACTOR="parser",
                   BANKBOT_MODEL_CONFIG=ModelConfig(model="gpt-test", api_key="k"))
def test_without_it_the_paraphrase_is_not_a_mandate(alice_conversation, say):
    model = ScriptedModel(call("block_card", {"card": "4242"}), text("Sorry."))
    say(alice_conversation, "someone swiped my wallet with the plastic in it",
        client=model.client())
    assert not Proposal.objects.exists()
