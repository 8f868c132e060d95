"""The optional model mandate extractor sees only the customer's words, follows the
parser's rules and binding, and can add nothing the customer did not write (G7)."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from bankbot.mandate_model import mandate_with_model
from llm.config import ModelConfig
from tests.agent.fakes import ScriptedModel, call, json_reply, text
from tools.mandate import Mandate, mandate_for
from tools.models import Proposal


def request(operation: str, plain: bool = True, **features: object) -> dict:
    return {
        "operation": operation,
        "plain_request": plain,
        "cards": [],
        "transactions": [],
        "amounts": [],
        "merchant_words": [],
        "reason": None,
        **features,
    }


def extract(alice, model: ScriptedModel, words: str, parsed: Mandate | None = None) -> Mandate:
    parsed = parsed if parsed is not None else mandate_for(customer=alice, text=words)
    return mandate_with_model(model.client(), "gpt-test", words, parsed, customer=alice, source="message:1")


def test_it_keeps_only_targets_written_in_the_customers_text(alice):
    # The model claims card 9999 and T-7777 too; neither is in the customer's words.
    model = ScriptedModel(
        json_reply(
            json.dumps(
                {
                    "requests": [
                        request("block_card", cards=["4242", "9999"]),
                        request(
                            "raise_dispute", transactions=["T-1001", "T-7777"], amounts=["15 000", "123"]
                        ),
                    ]
                }
            )
        )
    )
    mandate = extract(
        alice, model, "my card 4242 was swiped, and T-1001 of 15 000 looks wrong", parsed=Mandate()
    )
    assert {(g.operation, g.target, g.amount and f"{g.amount}") for g in mandate.grants} == {
        ("block_card", "4242", None),
        ("raise_dispute", "T-1001", "15000.00"),
    }


def test_a_request_it_calls_not_plain_grants_nothing(alice):
    model = ScriptedModel(
        json_reply(json.dumps({"requests": [request("block_card", plain=False, cards=["4242"])]}))
    )
    assert extract(alice, model, "should I block 4242?", parsed=Mandate()).grants == ()


def test_it_cannot_overrule_the_parsers_doubt(alice):
    model = ScriptedModel(json_reply(json.dumps({"requests": [request("block_card", cards=["4242"])]})))
    mandate = extract(alice, model, "block 4242 if it was used abroad")
    assert mandate.grants == ()
    assert not model.requests  # not even asked


def test_it_sends_the_model_only_the_customers_words(alice):
    model = ScriptedModel(json_reply(json.dumps({"requests": []})))
    extract(alice, model, "my card was stolen")
    sent = model.requests[0]["messages"]
    assert [m["role"] for m in sent] == ["system", "user"]
    assert sent[1]["content"] == "my card was stolen"
    assert model.requests[0]["response_format"]["type"] == "json_schema"


def test_where_it_and_the_parser_disagree_on_a_target_neither_grants(alice):
    model = ScriptedModel(
        json_reply(
            json.dumps(
                {"requests": [request("raise_dispute", transactions=["T-1001"], reason="charged_twice")]}
            )
        )
    )
    mandate = extract(alice, model, "please dispute T-1001")
    assert mandate.grants == ()


def test_a_failed_extraction_leaves_the_parsers_mandate(alice):
    model = ScriptedModel(json_reply("not json at all"))
    parsed = mandate_for(customer=alice, text="block 4242")
    assert extract(alice, model, "block 4242", parsed) == parsed


@pytest.mark.parametrize("finish", ["length", "content_filter"])
def test_an_extraction_cut_off_or_withheld_leaves_the_parsers_mandate(alice, finish):
    # The SDK's parse raises its own error classes here, outside openai.APIError.
    model = ScriptedModel(json_reply('{"requests": [{"operation": "block_card", "car', finish))
    parsed = mandate_for(customer=alice, text="block 4242")
    assert extract(alice, model, "block 4242", parsed) == parsed


@override_settings(
    BANKBOT_MANDATE_EXTRACTOR="model", BANKBOT_MODEL_CONFIG=ModelConfig(model="gpt-test", api_key="k")
)
def test_the_agent_uses_it_for_paraphrased_requests(alice_conversation, say):
    from accounts.models import Card

    Card.objects.filter(last4="5505").update(status="blocked", blocked_at="2026-01-01T00:00Z")
    model = ScriptedModel(
        json_reply(json.dumps({"requests": [request("block_card")]})),
        call("block_card", {"card": "4242"}),
        text("Please confirm."),
    )
    say(
        alice_conversation,
        "someone swiped my wallet with the plastic in it, make sure nobody can use it",
        client=model.client(),
    )
    assert Proposal.objects.get().args == {"card": "4242"}


@override_settings(
    BANKBOT_MANDATE_EXTRACTOR="parser", BANKBOT_MODEL_CONFIG=ModelConfig(model="gpt-test", api_key="k")
)
def test_without_it_the_paraphrase_is_not_a_mandate(alice_conversation, say):
    model = ScriptedModel(call("block_card", {"card": "4242"}), text("Sorry."))
    say(alice_conversation, "someone swiped my wallet with the plastic in it", client=model.client())
    assert not Proposal.objects.exists()


def test_it_offers_the_model_every_write_in_the_catalog(alice):
    from tools.catalog import CATALOG

    model = ScriptedModel(json_reply(json.dumps({"requests": []})))
    extract(alice, model, "my card was stolen")
    sent = model.requests[0]
    schema = json.dumps(sent["response_format"])
    writes = [spec.name for spec in CATALOG.writes()]
    assert "unblock_card" in writes
    for name in writes:
        assert name in sent["messages"][0]["content"] and f'"{name}"' in schema


def test_it_reads_an_unblock_the_parser_missed(alice):
    import uuid

    from accounts.services import card_block

    card_block(customer=alice, last4="5505", idempotency_key=uuid.uuid4())
    model = ScriptedModel(json_reply(json.dumps({"requests": [request("unblock_card", cards=["5505"])]})))
    mandate = extract(alice, model, "found 5505 under the sofa, make it work again", parsed=Mandate())
    assert [(g.operation, g.target) for g in mandate.grants] == [("unblock_card", "5505")]
