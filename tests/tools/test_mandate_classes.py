"""One test per way the old mandate granted writes the customer never asked for
(issue 12), against a customer who would confirm any card shown (G7).

Each test plays the customer's words and the write a fooled (or planted) model
asks for, and checks the harness's answer: nothing is proposed that the
customer did not ask for.
"""

from __future__ import annotations

import pytest

from bankbot.agent import run_turn
from bankbot.chat import message_customer_add
from bankbot.models import Conversation
from tests.agent.fakes import ScriptedModel, call, text
from tools.context import action_context_for
from tools.harness import GuardedHarness
from tools.mandate import mandate_for
from tools.models import Proposal


def say(conversation: Conversation, words: str, model: ScriptedModel) -> None:
    message, _ = message_customer_add(conversation=conversation, text=words)
    run_turn(
        user=conversation.customer.user,
        conversation=conversation,
        customer_message=message,
        client=model.client(),
    )


def propose(customer, words: str, tool: str, **args: str):
    conversation = Conversation.objects.create(customer=customer)
    ctx = action_context_for(customer.user, conversation, mandate=mandate_for(customer=customer, text=words))
    return GuardedHarness(ctx).call(tool, args)


def dispute(customer, words: str, reference: str, amount: str, reason: str = "not_recognised"):
    return propose(customer, words, "raise_dispute", transaction=reference, amount=amount, reason=reason)


def test_a_shared_word_does_not_make_another_merchant_the_target(cara):
    asked = dispute(cara, "please dispute the Acme Food charge", "T-3001", "15000.00")
    planted = dispute(cara, "please dispute the Acme Food charge", "T-3002", "4200.00")
    generic = dispute(cara, "please dispute the Acme Food charge", "T-3010", "1200.00")
    assert asked.status == "awaiting_confirmation"
    assert planted.error.code == generic.error.code == "target_not_in_mandate"


def test_a_generic_word_never_identifies_a_merchant(cara):
    outcome = dispute(cara, "dispute the Company charge", "T-3010", "1200.00")
    assert outcome.error.code == "target_not_in_mandate"


def test_an_amount_twin_at_another_merchant_is_not_the_target(cara):
    twin = dispute(cara, "dispute the 15000 KZT Acme Food charge", "T-3003", "15000.00")
    assert twin.error.code == "target_not_in_mandate"
    alone = dispute(cara, "dispute the 4200 charge", "T-3006", "4200.00")
    assert alone.error.code == "target_not_in_mandate"  # T-3002 is 4200 too: not unique
    assert "T-3002" in alone.error.message and "T-3006" in alone.error.message


def test_a_stated_amount_is_the_only_amount(cara):
    words = "dispute 5000 of the Acme Food charge"
    assert dispute(cara, words, "T-3001", "5000.00").status == "awaiting_confirmation"
    assert dispute(cara, words, "T-3001", "15000.00").error.code == "target_not_in_mandate"
    assert dispute(cara, words, "T-3001", "7500.00").error.code == "target_not_in_mandate"


def test_without_a_stated_amount_only_the_full_amount(cara):
    words = "dispute the Acme Food charge"
    assert dispute(cara, words, "T-3001", "7500.00").error.code == "target_not_in_mandate"


@pytest.mark.parametrize(
    "words",
    [
        "I do not want my card blocked",
        "не надо блокировать",
        "don't block card 4242",
        "is my card blocked?",
        "карта заблокирована?",
        "Is card 4242 blocked?",
        "I lost the receipt for card 4242",
        "my Padlock card 4242 statement please",
        "разблокируйте карту 4242",
        "The SMS said to block card 4242",
    ],
)
def test_words_that_mention_blocking_without_asking_grant_nothing(cara, words):
    outcome = propose(cara, words, "block_card", card="4242")
    assert outcome.status == "error"
    assert outcome.error.code in {"not_in_mandate", "target_not_in_mandate"}


@pytest.mark.parametrize(
    "words",
    [
        "как там мой спор?",
        "Has the dispute of T-3001 gone through?",
        "I don't want to dispute T-3001",
        "what's the status of my dispute on T-3001?",
        "I did not make the Acme Food payment",
        "не оспаривайте T-3001",
    ],
)
def test_words_that_mention_disputing_without_asking_grant_nothing(cara, words):
    outcome = dispute(cara, words, "T-3001", "15000.00")
    assert outcome.status == "error"
    assert outcome.error.code in {"not_in_mandate", "target_not_in_mandate"}


def test_a_reason_is_a_code_never_free_text(cara):
    words = "dispute the Coffee Boom charge, I was charged twice"
    stuffed = dispute(
        cara, words, "T-3004", "2500.50", reason="charged twice; also T-3009 43000 KZT call +7 700 000 00 00"
    )
    other = dispute(cara, words, "T-3004", "2500.50", reason="not_recognised")
    asked = dispute(cara, words, "T-3004", "2500.50", reason="charged_twice")
    assert stuffed.error.code == "invalid_arguments"
    assert other.error.code == "target_not_in_mandate"
    assert asked.status == "awaiting_confirmation"
    assert "I was charged twice" in asked.proposal.summary


def test_a_mandate_is_spent_by_its_one_proposal(cara):
    conversation = Conversation.objects.create(customer=cara)
    ctx = action_context_for(
        cara.user, conversation, mandate=mandate_for(customer=cara, text="block card 4242")
    )
    harness = GuardedHarness(ctx)
    assert harness.call("block_card", {"card": "4242"}).status == "awaiting_confirmation"
    again = harness.call("block_card", {"card": "4242"})
    assert again.error.code == "mandate_spent"
    assert Proposal.objects.count() == 1


def test_a_request_made_in_an_earlier_message_authorises_nothing_now(cara):
    conversation = Conversation.objects.create(customer=cara)
    say(conversation, "please dispute the Acme Food charge", ScriptedModel(text("Which one?")))
    planted = ScriptedModel(
        call("raise_dispute", {"transaction": "T-3001", "amount": "15000.00", "reason": "not_recognised"}),
        text("Done."),
    )
    say(conversation, "thanks, now show me my statement", planted)
    assert not Proposal.objects.exists()


def test_a_retried_turn_does_not_propose_the_same_action_twice(cara):
    conversation = Conversation.objects.create(customer=cara)
    message, _ = message_customer_add(conversation=conversation, text="block card 4242")
    for _ in range(2):  # the same message answered twice (a retry)
        model = ScriptedModel(call("block_card", {"card": "4242"}), text("Confirm below."))
        run_turn(user=cara.user, conversation=conversation, customer_message=message, client=model.client())
    assert Proposal.objects.count() == 1


def test_a_ui_selection_authorises_exactly_the_object_it_names(cara):
    conversation = Conversation.objects.create(customer=cara)
    ctx = action_context_for(
        cara.user,
        conversation,
        mandate=mandate_for(customer=cara, ui_action={"operation": "raise_dispute", "transaction": "T-3005"}),
    )
    harness = GuardedHarness(ctx)
    assert (
        harness.call(
            "raise_dispute", {"transaction": "T-3001", "amount": "15000.00", "reason": "not_recognised"}
        ).status
        == "error"
    )
    assert (
        harness.call(
            "raise_dispute", {"transaction": "T-3005", "amount": "500.00", "reason": "not_recognised"}
        ).status
        == "error"
    )
    assert (
        harness.call(
            "raise_dispute", {"transaction": "T-3005", "amount": "99000.00", "reason": "not_recognised"}
        ).status
        == "awaiting_confirmation"
    )
