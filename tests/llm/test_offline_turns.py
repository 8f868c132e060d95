"""What the offline model does with tool results: the second and later steps of a turn."""

from __future__ import annotations

import pytest

from tests.llm.offline_chat import Chat, statement, tool_result, transaction

NO_FILTER = {"merchant": None, "amount": None, "month": None}
MAGNUM = {"merchant": "Magnum", "amount": None, "month": None}
DEFAULT_REASON = "Customer does not recognise this charge"


def cards(*entries: tuple[str, str]) -> dict:
    return tool_result(
        tool="list_cards",
        data={
            "cards": [
                {"card": last4, "label": f"Visa •••• {last4}", "status": status} for last4, status in entries
            ]
        },
    )


def found(*rows: dict) -> dict:
    return tool_result(tool="find_transactions", data={"transactions": list(rows), "count": len(rows)})


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_blocks_the_only_active_card(careful: Chat, stream: bool) -> None:
    messages = careful.turn(
        "I lost my card", ("list_cards", {}, cards(("1111", "blocked"), ("4242", "active")))
    )

    assert careful.calls(messages, stream=stream) == [("block_card", {"card": "4242"})]


def test_it_proposes_its_best_guess_when_several_cards_are_active(careful: Chat) -> None:
    """The harness decides: "block my card" over two cards is denied with both as
    candidates, and their buttons show (issue 22, point 4)."""
    messages = careful.turn(
        "block my card", ("list_cards", {}, cards(("4242", "active"), ("5505", "active")))
    )

    assert careful.calls(messages) == [("block_card", {"card": "4242"})]


def test_it_proposes_the_card_whose_brand_the_customer_named(careful: Chat) -> None:
    listed = tool_result(
        tool="list_cards",
        data={
            "cards": [
                {"card": "4242", "label": "Visa •••• 4242", "status": "active"},
                {"card": "5505", "label": "Mastercard •••• 5505", "status": "active"},
            ]
        },
    )
    messages = careful.turn("freeze my Mastercard", ("list_cards", {}, listed))

    assert careful.calls(messages) == [("block_card", {"card": "5505"})]


def test_it_says_when_there_is_no_active_card(careful: Chat) -> None:
    messages = careful.turn("заблокируй мою карту", ("list_cards", {}, cards(("4242", "blocked"))))

    message = careful.reply(messages)

    assert message.tool_calls in (None, [])
    assert "нет активных карт" in message.content


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_disputes_the_transaction_the_finder_returned(careful: Chat, stream: bool) -> None:
    messages = careful.turn(
        "Dispute the Magnum charge",
        ("find_transactions", MAGNUM, found(transaction("T-10452", "15000.00"))),
    )

    calls = careful.calls(messages, stream=stream)

    assert calls == [
        (
            "raise_dispute",
            {"transaction": "T-10452", "amount": "15000.00", "reason": DEFAULT_REASON},
        )
    ]


def test_it_disputes_the_amount_the_customer_stated(careful: Chat) -> None:
    messages = careful.turn(
        "оспорь T-10452, там списали дважды",
        ("find_transactions", NO_FILTER, found(transaction("T-10452", "15000.00"))),
    )

    calls = careful.calls(messages)

    assert calls == [
        (
            "raise_dispute",
            {
                "transaction": "T-10452",
                "amount": "15000.00",
                "reason": "Charged twice for the same purchase",
            },
        )
    ]


def test_it_narrows_several_matches_by_the_day_the_customer_named(careful: Chat) -> None:
    rows = [
        transaction("T-1", "15000.00", posted_at="2026-10-03"),
        transaction("T-2", "15000.00", posted_at="2026-10-17"),
    ]
    messages = careful.turn(
        "I didn't make the 15000 payment on October 3",
        (
            "find_transactions",
            {"merchant": None, "amount": "15000.00", "month": "2026-10"},
            found(*rows),
        ),
    )

    calls = careful.calls(messages)

    assert calls == [
        (
            "raise_dispute",
            {
                "transaction": "T-1",
                "amount": "15000.00",
                "reason": "Customer did not make this payment",
            },
        )
    ]


def test_it_proposes_the_newest_match_when_several_match(careful: Chat) -> None:
    rows = [transaction("T-1", "15000.00"), transaction("T-2", "8000.00")]
    messages = careful.turn("dispute the Magnum charge", ("find_transactions", MAGNUM, found(*rows)))

    calls = careful.calls(messages)

    assert calls == [
        ("raise_dispute", {"transaction": "T-1", "amount": "15000.00", "reason": DEFAULT_REASON})
    ]


def test_it_looks_wider_when_the_finder_found_nothing(careful: Chat) -> None:
    messages = careful.turn(
        "dispute the Magnm charge", ("find_transactions", {**MAGNUM, "merchant": "Magnm"}, found())
    )

    assert careful.calls(messages) == [("find_transactions", NO_FILTER)]


def test_it_proposes_the_row_a_misspelt_name_is_nearest_to(careful: Chat) -> None:
    rows = [
        transaction("T-7", "900.00", merchant="Wolt"),
        transaction("T-8", "15000.00", merchant="Magnum Cash&Carry"),
    ]
    messages = careful.turn(
        "dispute the Magnm charge",
        ("find_transactions", {**MAGNUM, "merchant": "Magnm"}, found()),
        ("find_transactions", NO_FILTER, found(*rows)),
    )

    assert careful.calls(messages) == [
        ("raise_dispute", {"transaction": "T-8", "amount": "15000.00", "reason": DEFAULT_REASON})
    ]


def test_it_says_when_nothing_matches_even_the_recent_rows(careful: Chat) -> None:
    messages = careful.turn(
        "dispute the Magnum charge",
        ("find_transactions", MAGNUM, found()),
        ("find_transactions", NO_FILTER, found()),
    )

    message = careful.reply(messages)

    assert message.tool_calls in (None, [])
    assert "couldn't find" in message.content


def test_it_filters_a_whole_statement_strictly(careful: Chat) -> None:
    """Without the finder the model looks through the month itself."""
    rows = [
        transaction("T-1", "15000.00", merchant="Magnum"),
        transaction("T-2", "900.00", merchant="Wolt"),
    ]
    messages = careful.turn(
        "dispute the Wolt charge in October",
        ("get_statement", {"month": "2026-10"}, statement(*rows, total="15900.00")),
    )

    calls = careful.calls(messages)

    assert calls == [("raise_dispute", {"transaction": "T-2", "amount": "900.00", "reason": DEFAULT_REASON})]


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_hands_a_proposal_to_the_customer(careful: Chat, stream: bool) -> None:
    proposal = tool_result(
        "awaiting_confirmation",
        tool="block_card",
        proposal="P-7f3a",
        summary="Block card •••• 4242",
        message="Waiting for the customer to confirm.",
    )
    messages = careful.turn("block my card 4242", ("block_card", {"card": "4242"}, proposal))

    message = careful.reply(messages, stream=stream)

    assert message.tool_calls in (None, [])
    assert message.content == (
        "I've prepared this for you: Block card •••• 4242. Please check it and press Confirm if it is right."
    )


def test_it_hands_a_proposal_over_in_russian(careful: Chat) -> None:
    proposal = tool_result("awaiting_confirmation", tool="block_card", summary="Block card •••• 4242")
    messages = careful.turn("заблокируй карту 4242", ("block_card", {"card": "4242"}, proposal))

    message = careful.reply(messages)

    # The action in the customer's words, not the page's (the summary is English here).
    assert "Заблокировать карту •••• 4242" in message.content
    assert "Block card" not in message.content
    assert "Подтвердить" in message.content


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_relays_a_denial_and_stops(careful: Chat, stream: bool) -> None:
    denial = tool_result(
        "error",
        tool="raise_dispute",
        error={
            "code": "too_old",
            "message": "The transaction is older than 120 days; disputes are not accepted.",
        },
    )
    arguments = {"transaction": "T-10452", "amount": "5000.00", "reason": DEFAULT_REASON}
    messages = careful.turn("dispute T-10452 for 5000", ("raise_dispute", arguments, denial))

    message = careful.reply(messages, stream=stream)

    assert message.tool_calls in (None, [])
    assert "The transaction is older than 120 days; disputes are not accepted." in message.content


def test_it_relays_a_failed_read_instead_of_retrying(careful: Chat) -> None:
    error = tool_result("error", error={"code": "bad_month", "message": "Month must look like 2026-10."})
    messages = careful.turn("statement for October", ("get_statement", {"month": "2026-10"}, error))

    message = careful.reply(messages)

    assert message.tool_calls in (None, [])
    assert "Month must look like 2026-10." in message.content


@pytest.mark.parametrize("stream", [False, True], ids=["create", "stream"])
def test_it_states_the_tools_total_the_way_the_language_writes_it(careful: Chat, stream: bool) -> None:
    rows = [transaction("T-1", "15000.00"), transaction("T-2", "2500.50")]
    messages = careful.turn(
        "How much did I spend in October?",
        ("get_statement", {"month": "2026-10"}, statement(*rows, total="17500.50")),
    )

    message = careful.reply(messages, stream=stream)

    assert message.tool_calls in (None, [])
    assert message.content == "In October 2026 you spent 17,500.50\u00a0₸ (2 transactions)."


def test_it_summarises_a_statement_in_russian(careful: Chat) -> None:
    rows = [transaction("T-1", "15000.00"), transaction("T-2", "2500.50")]
    messages = careful.turn(
        "выписка за октябрь",
        ("get_statement", {"month": "2026-10"}, statement(*rows, total="17500.50")),
    )

    message = careful.reply(messages)

    assert message.content == "В выписке за октябрь 2026 2 операции на сумму 17\u00a0500,50\u00a0₸."


def test_it_says_when_a_month_is_empty(careful: Chat) -> None:
    messages = careful.turn(
        "statement for October", ("get_statement", {"month": "2026-10"}, statement(total="0.00"))
    )

    assert careful.reply(messages).content == "There are no transactions in your statement for October 2026."


def test_it_tolerates_system_notes_after_the_customer_message(careful: Chat) -> None:
    messages = careful.turn("block my card 4242")
    messages.append({"role": "system", "content": "The customer confirmed P-1: card blocked."})

    assert careful.calls(messages) == [("block_card", {"card": "4242"})]


def test_it_never_repeats_a_write_in_one_turn(careful: Chat) -> None:
    """Even if the harness answered a write with something unexpected."""
    messages = careful.turn(
        "block my card 4242", ("block_card", {"card": "4242"}, {"status": "something new"})
    )

    message = careful.reply(messages)

    assert message.tool_calls in (None, [])


@pytest.mark.parametrize(
    ("text", "call", "summary", "said"),
    [
        (
            "заблокируйте карту 4242",
            ("block_card", {"card": "4242"}),
            "Block card Visa •••• 4242",
            "Я подготовил это для вас: Заблокировать карту •••• 4242.",
        ),
        (
            "оспорьте T-10022",
            ("raise_dispute", {"transaction": "T-10022", "amount": "74234.00", "reason": "not_recognised"}),
            "Dispute 74,234.00 ₸ of transaction T-10022 (2026-09-16): I don't recognise this payment",
            # As the confirm card's headline says it, all in Russian but the merchant's name.
            "Я подготовил это для вас: Оспорить 74\u00a0234,00\u00a0₸ в Magnum от 3 Окт 2026 — T-10022.",
        ),
        (
            "dispute T-10022",
            ("raise_dispute", {"transaction": "T-10022", "amount": "74234.00", "reason": "not_recognised"}),
            "Dispute 74,234.00 ₸ of transaction T-10022 (2026-09-16): I don't recognise this payment",
            "I've prepared this for you: Dispute 74,234.00\u00a0₸ at Magnum on 3 Oct 2026 — T-10022.",
        ),
        (
            "block card 4242",
            ("block_card", {"card": "4242"}),
            "Заблокировать карту •••• 4242",
            "I've prepared this for you: Block card •••• 4242.",
        ),
    ],
)
def test_it_says_what_it_prepared_in_the_customers_language(careful: Chat, text, call, summary, said) -> None:
    """The harness's summary is in the page's language; a customer writing the other
    language reads the action in theirs, from the call's own arguments (customer issue, point 4)."""
    name, arguments = call
    proposal = tool_result("awaiting_confirmation", tool=name, proposal="P-1", summary=summary)
    # A dispute is looked up first.
    lookup = [("find_transactions", NO_FILTER, found(transaction("T-10022", "74234.00")))]
    steps = [*(lookup if name == "raise_dispute" else []), (name, arguments, proposal)]
    message = careful.reply(careful.turn(text, *steps))

    assert said in message.content
    assert summary not in message.content


@pytest.mark.parametrize(
    ("text", "summary", "said"),
    [
        (
            "оспорьте 74234 по T-10022",
            "Dispute P-1",
            "Я подготовил это для вас: Оспорить 74\u00a0234,00\u00a0₸ по операции T-10022.",
        ),
        (
            "dispute 74234 of T-10022",
            "Оспорить P-1",
            "I've prepared this for you: Dispute 74,234.00\u00a0₸ of transaction T-10022.",
        ),
    ],
)
def test_a_dispute_whose_row_it_never_read_is_said_by_its_arguments(
    careful: Chat, text, summary, said
) -> None:
    """No row in its context to name the merchant and the day: the call's own words."""
    call = {"transaction": "T-10022", "amount": "74234.00", "reason": "not_recognised"}
    proposal = tool_result("awaiting_confirmation", tool="raise_dispute", proposal="P-1", summary=summary)
    message = careful.reply(careful.turn(text, ("raise_dispute", call, proposal)))

    assert said in message.content


def test_it_repeats_the_summary_when_it_is_in_the_customers_language(careful: Chat) -> None:
    """The summary names the card's brand: kept whenever it is in the reply's language."""
    proposal = tool_result(
        "awaiting_confirmation", tool="block_card", proposal="P-1", summary="Block card Visa •••• 4242"
    )
    message = careful.reply(careful.turn("block card 4242", ("block_card", {"card": "4242"}, proposal)))

    assert "I've prepared this for you: Block card Visa •••• 4242." in message.content


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("show my disputes", "D-881 about T-1001 (15,000.00\u00a0₸), opened 20 November 2026: open"),
        (
            "покажи мои споры",
            "D-881 по операции T-1001 (15\u00a0000,00\u00a0₸), открыт 20 ноября 2026: открыт",
        ),
    ],
)
def test_it_says_when_a_dispute_was_opened_in_the_customers_words(careful: Chat, text, said) -> None:
    """Not "opened 2026-11-20" (customer issue, point 4)."""
    row = {
        "dispute_id": "D-881",
        "transaction": "T-1001",
        "amount_kzt": "15000.00",
        "status": "opened",
        "opened_on": "2026-11-20",
        "updated_on": "2026-11-20",
        "note_from_bank": "",
    }
    listed = tool_result(tool="get_disputes", data={"disputes": [row], "count": 1})

    message = careful.reply(careful.turn(text, ("get_disputes", {}, listed)))

    assert said in message.content
