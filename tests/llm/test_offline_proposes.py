"""The offline model proposes whenever the customer asks (issue 22, point 4): it
stands in for an LLM and must be at least as generous as the mandate. It calls the
write tool with its best guess and lets the harness decide; a denial with
candidates is said in one sentence (the chat shows their buttons), and a denial
that names the exact call asked for is followed once."""

from __future__ import annotations

import pytest

from tests.llm.offline_chat import Chat, tool_result, transaction

DEFAULT_REASON = "Customer does not recognise this charge"
TWO_CARDS = tool_result(
    tool="list_cards",
    data={
        "cards": [
            {"card": "4242", "label": "Visa •••• 4242", "status": "active"},
            {"card": "5505", "label": "Mastercard •••• 5505", "status": "blocked", "blocked_by": "customer"},
        ]
    },
)


@pytest.mark.parametrize(
    "said",
    [
        "blcok my card 4242",
        "freeze card 4242",
        "lock card 4242",
        "kill my card 4242",
        "stop my card 4242",
        "cancel card 4242",
        "I'd like card 4242 blocked please",
        "заблочьте карту 4242",
        "заблакируйте карту 4242",
        "suspend card 4242",
    ],
)
def test_it_proposes_a_block_however_it_is_asked(careful: Chat, said: str) -> None:
    assert careful.calls(careful.turn(said)) == [("block_card", {"card": "4242"})]


@pytest.mark.parametrize(
    "said",
    [
        "unblcok card 5505",
        "lift the block on card 5505",
        "turn card 5505 back on",
        "remove the block from 5505",
        "снимите блок с карты 5505",
        "разблочьте 5505",
        "unfreeze 5505",
        "I want card 5505 unblocked",
    ],
)
def test_it_proposes_an_unblock_however_it_is_asked(careful: Chat, said: str) -> None:
    assert careful.calls(careful.turn(said)) == [("unblock_card", {"card": "5505"})]


def test_it_guesses_the_card_an_unblock_applies_to(careful: Chat) -> None:
    messages = careful.turn("turn my card back on", ("list_cards", {}, TWO_CARDS))
    assert careful.calls(messages) == [("unblock_card", {"card": "5505"})]


@pytest.mark.parametrize(
    "said",
    [
        "dispuet T-1001 for 15000",
        "chargeback T-1001 for 15000",
        "I want my money back for T-1001, 15000",
        "верните деньги за T-1001, 15000 тенге",
        "это не я, T-1001 на 15000",
        "contest T-1001 for 15000",
    ],
)
def test_it_proposes_a_dispute_however_it_is_asked(careful: Chat, said: str) -> None:
    calls = careful.calls(careful.turn(said))
    assert [(name, args["transaction"], args["amount"]) for name, args in calls] == [
        ("raise_dispute", "T-1001", "15000.00")
    ]


def test_it_says_the_nearest_were_offered_when_the_harness_denies_with_them(careful: Chat) -> None:
    denial = tool_result(
        "error",
        tool="raise_dispute",
        error={"code": "target_not_in_mandate", "message": "… Candidates: T-1, T-2."},
        candidates={"transactions": [transaction("T-1"), transaction("T-2")], "fit": "nearest"},
    )
    arguments = {"transaction": "T-1", "amount": "15000.00", "reason": DEFAULT_REASON}
    messages = careful.turn(
        "dispute the Magnm charge",
        (
            "find_transactions",
            {"merchant": "Magnm", "amount": None, "month": None},
            tool_result(tool="find_transactions", data={"transactions": [transaction("T-1")]}),
        ),
        ("raise_dispute", arguments, denial),
    )

    message = careful.reply(messages)

    assert message.tool_calls in (None, [])
    assert message.content.startswith("I couldn't match your words to exactly one")
    assert "press the button next to the one you mean" in message.content


def test_it_makes_the_call_the_customer_asked_for_once(careful: Chat) -> None:
    asked = {"transaction": "T-2", "amount": "5000.00", "reason": "not_recognised"}
    denial = tool_result(
        "error",
        tool="raise_dispute",
        error={"code": "target_not_in_mandate", "message": "The customer asked for exactly this: …"},
        asked_for=[asked],
    )
    guessed = {"transaction": "T-1", "amount": "5000.00", "reason": DEFAULT_REASON}
    messages = careful.turn("dispute 5000 of the Magnum charge", ("raise_dispute", guessed, denial))

    assert careful.calls(messages) == [("raise_dispute", asked)]

    again = careful.turn(
        "dispute 5000 of the Magnum charge",
        ("raise_dispute", guessed, denial),
        ("raise_dispute", asked, denial),
    )
    assert careful.reply(again).tool_calls in (None, [])  # once only


@pytest.mark.parametrize(
    "said",
    [
        "put a hold on card 4242",
        "please nuke card 4242",
        "blok card 4242",
        "plz bock 4242",
        "остановите карту 4242",
        "отключите пожалуйста карту 4242 на время",
        "поставьте на стоп 4242",
    ],
)
def test_it_reads_a_block_in_the_customers_own_idiom(careful: Chat, said: str) -> None:
    assert careful.calls(careful.turn(said)) == [("block_card", {"card": "4242"})]


@pytest.mark.parametrize(
    "said",
    [
        "switch card 5505 back on please",
        "включите обратно карту 5505",
        "откройте обратно 5505",
        "разблок 5505",
        "снимите блок с 5505",
    ],
)
def test_it_reads_an_unblock_in_the_customers_own_idiom(careful: Chat, said: str) -> None:
    assert careful.calls(careful.turn(said)) == [("unblock_card", {"card": "5505"})]


@pytest.mark.parametrize(
    "said",
    [
        "raise a claim on T-1001, 15000",
        "I want a refund for T-1001 of 15000",
        "please challenge T-1001 for 15000",
        "I want the 15000 back for T-1001",
        "подайте претензию по T-1001 на 15000",
        "верните бабки за T-1001, 15000",
        "хочу опротестовать T-1001 на 15000",
        "оформите возврат по T-1001 на 15000",
    ],
)
def test_it_reads_a_dispute_in_the_customers_own_idiom(careful: Chat, said: str) -> None:
    calls = careful.calls(careful.turn(said))
    assert [(name, args["transaction"], args["amount"]) for name, args in calls] == [
        ("raise_dispute", "T-1001", "15000.00")
    ]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Block 4242 and unblock 5505", [("block_card", "4242"), ("unblock_card", "5505")]),
        ("Разблокируйте 5505 и заблокируйте 4242", [("unblock_card", "5505"), ("block_card", "4242")]),
        ("block 4242 and 3391, my bag was stolen", [("block_card", "4242"), ("block_card", "3391")]),
        (
            "kill card 4242 and get me my money back for T-1001, 15000, that wasn't me",
            [("block_card", "4242"), ("raise_dispute", "T-1001")],
        ),
    ],
)
def test_it_proposes_each_write_a_message_asks_for_in_the_same_turn(
    careful: Chat, said: str, expected: list[tuple[str, str]]
) -> None:
    calls = careful.calls(careful.turn(said))
    assert [(name, args.get("card") or args["transaction"]) for name, args in calls] == expected


def test_one_write_asked_in_many_words_is_proposed_once(careful: Chat) -> None:
    calls = careful.calls(careful.turn("Dispute T-1001 for 15000, it wasn't me, I never made it"))
    assert [name for name, _ in calls] == ["raise_dispute"]


def test_a_write_waits_for_the_other_requests_lookup_and_both_go_together(careful: Chat) -> None:
    said = "block card 4242 and dispute the Magnum charge"
    assert careful.calls(careful.turn(said)) == [
        ("find_transactions", {"merchant": "Magnum", "amount": None, "month": None})
    ]
    found = tool_result(tool="find_transactions", data={"transactions": [transaction("T-1")]})
    messages = careful.turn(
        said, ("find_transactions", {"merchant": "Magnum", "amount": None, "month": None}, found)
    )
    assert [(name, args.get("card") or args["transaction"]) for name, args in careful.calls(messages)] == [
        ("block_card", "4242"),
        ("raise_dispute", "T-1"),
    ]

    proposed = tool_result("awaiting_confirmation", tool="block_card", summary="Block card 4242")
    after = careful.turn(
        said,
        ("find_transactions", {"merchant": "Magnum", "amount": None, "month": None}, found),
        ("block_card", {"card": "4242"}, proposed),
    )
    assert careful.reply(after).tool_calls in (None, [])  # the round of writes is over


def test_it_makes_each_call_the_customer_asked_for_once_when_two_are_named(careful: Chat) -> None:
    said = "block my card and the other one"
    denial = tool_result(
        "error",
        tool="block_card",
        error={"code": "target_not_in_mandate", "message": "The customer asked for exactly this: …"},
        asked_for=[{"card": "4242"}, {"card": "5505"}],
    )
    messages = careful.turn(said, ("block_card", {"card": "3391"}, denial))

    assert careful.calls(messages) == [("block_card", {"card": "4242"}), ("block_card", {"card": "5505"})]


def test_a_second_object_joined_to_a_request_is_that_request_again(careful: Chat) -> None:
    said = "Dispute the Magnum charge and the Wolt one"
    magnum = {"merchant": "Magnum", "amount": None, "month": None}
    recent = {"merchant": None, "amount": None, "month": None}
    assert careful.calls(careful.turn(said)) == [("find_transactions", magnum), ("find_transactions", recent)]
    rows = [transaction("T-1", merchant="Magnum"), transaction("T-2", merchant="Wolt")]
    messages = careful.turn(
        said,
        ("find_transactions", magnum, tool_result(tool="find_transactions", data={"transactions": rows[:1]})),
        ("find_transactions", recent, tool_result(tool="find_transactions", data={"transactions": rows})),
    )
    assert [args["transaction"] for _, args in careful.calls(messages)] == ["T-1", "T-2"]


@pytest.mark.parametrize("said", ["block my card and call me back", "block card 4242 and thanks"])
def test_words_after_a_request_that_name_no_object_ask_nothing_more(careful: Chat, said: str) -> None:
    assert [name for name, _ in careful.calls(careful.turn(said))] in (["list_cards"], ["block_card"])
