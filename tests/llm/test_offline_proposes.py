"""The offline model proposes whenever the customer asks (issue 22, point 4): it
stands in for an LLM and must be at least as generous as the mandate. It calls the
write tool with its best guess and lets the harness decide; a denial with
candidates is said in one sentence (the chat shows their buttons), and a denial
that names the exact call asked for is followed once."""

from __future__ import annotations

import pytest

from tests.llm.offline_chat import Chat, tool_result, transaction

DEFAULT_REASON = "Customer does not recognise this charge"
TWO_CARDS = tool_result(tool="list_cards", data={"cards": [
    {"card": "4242", "label": "Visa •••• 4242", "status": "active"},
    {"card": "5505", "label": "Mastercard •••• 5505", "status": "blocked",
     "blocked_by": "customer"}]})


@pytest.mark.parametrize("said", [
    "blcok my card 4242", "freeze card 4242", "lock card 4242", "kill my card 4242",
    "stop my card 4242", "cancel card 4242", "I'd like card 4242 blocked please",
    "заблочьте карту 4242", "заблакируйте карту 4242", "suspend card 4242",
])
def test_it_proposes_a_block_however_it_is_asked(careful: Chat, said: str) -> None:
    assert careful.calls(careful.turn(said)) == [("block_card", {"card": "4242"})]


@pytest.mark.parametrize("said", [
    "unblcok card 5505", "lift the block on card 5505", "turn card 5505 back on",
    "remove the block from 5505", "снимите блок с карты 5505", "разблочьте 5505",
    "unfreeze 5505", "I want card 5505 unblocked",
])
def test_it_proposes_an_unblock_however_it_is_asked(careful: Chat, said: str) -> None:
    assert careful.calls(careful.turn(said)) == [("unblock_card", {"card": "5505"})]


def test_it_guesses_the_card_an_unblock_applies_to(careful: Chat) -> None:
    messages = careful.turn("turn my card back on", ("list_cards", {}, TWO_CARDS))
    assert careful.calls(messages) == [("unblock_card", {"card": "5505"})]


@pytest.mark.parametrize("said", [
    "dispuet T-1001 for 15000", "chargeback T-1001 for 15000",
    "I want my money back for T-1001, 15000", "верните деньги за T-1001, 15000 тенге",
    "это не я, T-1001 на 15000", "contest T-1001 for 15000",
])
def test_it_proposes_a_dispute_however_it_is_asked(careful: Chat, said: str) -> None:
    calls = careful.calls(careful.turn(said))
    assert [(name, args["transaction"], args["amount"]) for name, args in calls] == [
        ("raise_dispute", "T-1001", "15000.00")]


def test_it_says_the_nearest_were_offered_when_the_harness_denies_with_them(careful: Chat) -> None:
    denial = tool_result("error", tool="raise_dispute", error={
        "code": "target_not_in_mandate", "message": "… Candidates: T-1, T-2."},
        candidates={"transactions": [transaction("T-1"), transaction("T-2")], "fit": "nearest"})
    arguments = {"transaction": "T-1", "amount": "15000.00", "reason": DEFAULT_REASON}
    messages = careful.turn("dispute the Magnm charge",
                            ("find_transactions", {"merchant": "Magnm", "amount": None,
                                                   "month": None},
                             tool_result(tool="find_transactions",
                                         data={"transactions": [transaction("T-1")]})),
                            ("raise_dispute", arguments, denial))

    message = careful.reply(messages)

    assert message.tool_calls in (None, [])
    assert message.content.startswith("I couldn't match your words to exactly one")
    assert "press the button next to the one you mean" in message.content


def test_it_makes_the_call_the_customer_asked_for_once(careful: Chat) -> None:
    asked = {"transaction": "T-2", "amount": "5000.00", "reason": "not_recognised"}
    denial = tool_result("error", tool="raise_dispute", error={
        "code": "target_not_in_mandate", "message": "The customer asked for exactly this: …"},
        asked_for=[asked])
    guessed = {"transaction": "T-1", "amount": "5000.00", "reason": DEFAULT_REASON}
    messages = careful.turn("dispute 5000 of the Magnum charge",
                            ("raise_dispute", guessed, denial))

    assert careful.calls(messages) == [("raise_dispute", asked)]

    again = careful.turn("dispute 5000 of the Magnum charge", ("raise_dispute", guessed, denial),
                         ("raise_dispute", asked, denial))
    assert careful.reply(again).tool_calls in (None, [])  # once only
