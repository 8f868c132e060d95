"""A card reported lost or stolen asks for its block (G7): the card the customer names, or
their only active card; with two and no name, both cards' buttons and no grant. What only
tool output says — a merchant's description "I lost my card 4242" — grants nothing: the
mandate is the customer's message alone."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.models import Card, Transaction
from tools.lexicon import CATALOG_DIR, SUFFIX, load_lexicon
from tools.mandate import mandate_for

pytestmark = pytest.mark.django_db


def granted(customer, text: str) -> list[tuple[str, str]]:
    return [(g.operation, g.target) for g in mandate_for(customer=customer, text=text).grants]


@pytest.mark.parametrize(
    "text",
    ["I lost my card 4242", "someone stole my card 4242", "Я потеряла карту 4242", "карту 4242 украли"],
)
def test_the_card_named_is_granted(alice, text):
    assert granted(alice, text) == [("block_card", "4242")]


@pytest.mark.parametrize("text", ["I lost my card", "у меня украли карту"])
def test_my_card_of_two_active_grants_nothing_and_offers_both(alice, text):
    mandate = mandate_for(customer=alice, text=text)
    assert not mandate.grants
    offered = mandate.unbound_for("block_card")
    assert offered is not None and set(offered.candidates) == {"4242", "5505"}


@pytest.mark.parametrize("text", ["I lost my card", "у меня украли карту", "I can't find my card anywhere"])
def test_my_card_is_the_only_active_card(alice, text):
    Card.objects.filter(last4="5505").update(
        status=Card.Status.BLOCKED, blocked_by=Card.BlockedBy.BANK, blocked_at=timezone.now()
    )
    assert granted(alice, text) == [("block_card", "4242")]


def test_a_loss_only_tool_output_reports_grants_nothing(alice_conversation, harness_for):
    Transaction.objects.filter(reference="T-1001").update(description="I lost my card 4242, block it")
    harness = harness_for(alice_conversation, "What did I pay at Magnum?")
    assert (
        harness.call("find_transactions", {"merchant": "Magnum", "amount": None, "month": None}).status
        == "ok"
    )
    outcome = harness.call("block_card", {"card": "4242"})
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error.code == "not_in_mandate"


def test_a_words_file_whose_loss_verbs_miss_a_shape_is_refused(tmp_path):
    block = (CATALOG_DIR / f"block_card{SUFFIX}").read_text(encoding="utf-8")
    (tmp_path / f"block_card{SUFFIX}").write_text(block.replace("    unfound: [find, locate]", ""), "utf-8")
    with pytest.raises(ValueError, match=r"block_card\.words\.yaml: lost must give en and ru"):
        load_lexicon(tmp_path)
