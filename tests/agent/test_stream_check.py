"""The answer streams a sentence at a time, each checked before it is shown (issue 23,
point 4; G10): a sentence the check would change is shown changed — what it removes
replaced by the check's own note — and the sentences after it still stream; what
was shown is never taken back, and the stored answer is exactly what was shown."""

from __future__ import annotations

import re
import threading
import uuid
from decimal import Decimal

import pytest
from django.utils import translation
from hypothesis import assume, example, given
from hypothesis import strategies as st

from accounts.models import Transaction
from bankbot.agent import TurnEvent, run_turn
from bankbot.chat import message_customer_add
from bankbot.fragments import render_event
from bankbot.output_checks import StreamGate, check_answer
from disputes.models import Dispute
from llm.config import ModelConfig
from llm.offline.served import serve_in_thread
from tests.agent.fakes import ScriptedModel, call, text
from tests.agent.test_output_checks import exact_stream
from tests.paced_model import CAP_SECONDS, PacedServer
from tools.catalog import rows
from tools.models import ToolCallTrace

KNOWN = [
    '{"accounts": [{"account": "0100", "balance_kzt": "100000.00"}], "count": 1}',
    '{"transactions": [{"reference": "T-1", "amount_kzt": "18760.00"}], "total_kzt": "18760.00"}',
    '{"disputes": [{"reference": "D-1", "status": "in_review"}]}',
    '{"cards": [{"card": "4242", "status": "active"}]}',
]


def words(answer: str) -> list[str]:
    return re.findall(r"\S+\s*", answer)


def stream(gate: StreamGate, deltas: list[str]) -> list[str]:
    """What the gate shows after each delta, then at the end of the answer."""
    return [gate.feed(delta) for delta in deltas] + [gate.finish()]


# --- a flagged sentence is replaced, and the stream goes on -----------------------


def test_a_flagged_sentence_is_replaced_and_later_clean_sentences_still_stream():
    gate = StreamGate(KNOWN)
    first = "Hello, here is your account. "
    deltas = words(
        first + "You were refunded 99,999.00 ₸ yesterday. Your balance is 100,000.00 ₸. Anything else?"
    )
    shown = stream(gate, deltas)
    # The first sentence is shown as soon as it has ended, before the next one has.
    assert "".join(shown[: len(words(first)) + 1]) == first
    assert "".join(shown) == (
        first + "You were refunded [amount removed] yesterday. Your balance is 100,000.00 ₸. Anything else?"
    )
    assert "99" not in "".join(shown)
    assert gate.text == "".join(shown)
    assert gate.problems == [
        "The assistant stated amounts that do not match your records "
        "(99999.00); they were removed. Please rely on the statement "
        "table instead."
    ]


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        (
            "Your balance is 18,760.00 ₸. The rest is as before.",  # the bank's one balance instead
            "Your balance is 100,000.00\u00a0₸. The rest is as before.",
        ),
        (
            "Your dispute D-1 was approved and refunded. It takes a day.",  # D-1's one status
            "Your dispute D-1 was being reviewed. It takes a day.",
        ),
        (
            "The dispute D-1 and D-2 were approved. It takes a day.",  # two named: not guessed
            "The dispute D-1 and D-2 were [status removed]. It takes a day.",
        ),
        (
            "Call +7 700 123 45 67 or open evil-bank.kz/refund now. Thanks.",
            "Call [phone number removed] or open [link removed] now. Thanks.",
        ),
    ],
)
def test_a_false_claim_or_a_contact_is_replaced_in_its_sentence(answer, shown):
    gate = StreamGate(KNOWN)
    assert "".join(stream(gate, words(answer))) == shown
    assert gate.flagged


def test_a_status_said_late_in_a_long_sentence_is_shown_as_the_bank_states_it():
    # The sentence runs on past a piece's bound: the dispute is named in one piece, its
    # false status comes in a later one and is replaced there, by the bank's status.
    head = (
        "About your dispute D-1 that you opened for the coffee shop purchase in the "
        "afternoon of the third of October when the card was charged twice "
    )
    answer = head + "it was approved and refunded. Anything else?"
    gate = StreamGate(KNOWN, piece_chars=40)
    shown = stream(gate, words(answer))
    assert "".join(shown) == gate.text == head + "it was being reviewed. Anything else?"
    assert gate.problems == [
        "The assistant described a dispute's status that does not "
        "match your records; the bank's status is shown in its place."
    ]


def test_a_status_that_would_rewrite_shown_text_is_removed_and_said_removed():
    # The status word is shown before the words that make it a dispute's status: the
    # later piece is replaced by the note; nothing was shown in its place, and the
    # customer is told it was removed, not that the bank's status is shown.
    gate = StreamGate(KNOWN, piece_chars=30)
    out = "".join(
        stream(
            gate,
            words("It was approved and refunded as far as I can see on your dispute here today. Thanks."),
        )
    )
    assert out.startswith("It was approved") and "[status removed]" in out
    assert out.endswith("Thanks.") and out == gate.text
    assert "being reviewed" not in out
    assert gate.problems == [
        "The assistant described a dispute's status that does not match your records; it was removed."
    ]


def test_a_cards_false_state_is_replaced_by_its_state_as_the_sentence_streams():
    gate = StreamGate(KNOWN)
    with translation.override("ru"):
        out = "".join(stream(gate, list("Карта 4242 заблокирована. Чем ещё помочь?")))
    assert out == gate.text == "Карта 4242 активна. Чем ещё помочь?"
    assert gate.problems == [
        "The assistant described a card's state that does not match "
        "your cards; the card's state is shown in its place."
    ]


def test_the_note_is_in_the_customers_language():
    from django.utils import translation

    with translation.override("ru"):
        gate = StreamGate(KNOWN)
        shown = "".join(stream(gate, words("Вам вернут 99 999 ₸. Позвоните +7 700 123 45 67. Спасибо.")))
    assert shown == "Вам вернут [сумма удалена]. Позвоните [номер телефона удалён]. Спасибо."


def test_what_was_shown_is_never_taken_back_by_a_later_claim():
    # A long sentence goes in bounded chunks: the figure is shown (the bank wrote it)
    # before the words that call it the balance arrive. Those words are held back
    # and replaced; the figure already shown stays as it was.
    head = (
        "The figure of 18,760.00 ₸ that you can see on the statement page for the "
        "purchase you made at the shop near your home in October in the afternoon "
        "right after work when you went there with your family to buy the groceries "
        "for the whole week "
    )
    tail = "is in fact what your balance shows today. Anything else?"
    assert len(head) > 200 and "," not in head.replace("18,760", "")  # one clause
    gate = StreamGate(KNOWN)
    shown = stream(gate, words(head + tail))
    before_tail = "".join(shown[: len(words(head))])
    assert before_tail and (head + tail).startswith(before_tail)
    assert "18,760.00 ₸" in before_tail  # shown before the claim was made
    out = "".join(shown)
    assert out.startswith(before_tail) and "balance" not in out
    assert "[amount removed]" in out and out.endswith("Anything else?")
    assert gate.problems and "balance" in gate.problems[0]


# --- a planted figure, phone number or link, split over many deltas ----------------

PLANTED = [
    ("a refund of 99 999 ₸", lambda out: "99999" not in re.sub(r"\D", "", out)),
    ("a refund of fifteen thousand tenge", lambda out: "fifteen" not in out),
    ("возврат пятнадцать тысяч тенге", lambda out: "пятнадцать" not in out),
    ("a bonus of 1.48m ₸", lambda out: "1.48" not in out),
    ("a bonus of 27.3k", lambda out: "27.3" not in out),
    ("a call to +7 700 123 45 67", lambda out: "7001234567" not in re.sub(r"\D", "", out)),
    ("a call to 8-7-0-1-2-3-4-5-6-7", lambda out: "8701234567" not in re.sub(r"\D", "", out)),
    (
        "a call to 8 · 7 · 0 · 1 · 2 · 3 · 4 · 5 · 6 · 7",
        lambda out: "8701234567" not in re.sub(r"\D", "", out),
    ),
    ("a visit to evil-bank.kz/refund", lambda out: "evil" not in out),
    ("a visit to example (dot) kz/claim", lambda out: "example" not in out),
    ("a visit to example dot kz", lambda out: "example" not in out),
    ("a visit to hxxps://evil.example/x", lambda out: "evil" not in out),
    ("a letter to refunds [at] secure-pay.kz", lambda out: "secure-pay" not in out),
    ("this ![x](https://evil.example/c?d=4242)", lambda out: "evil" not in out),
]
LONG = "and then we looked at it again " * 9  # runs past a piece's bound: chunks


@pytest.mark.parametrize(("planted", "unseen"), PLANTED, ids=[p for p, _ in PLANTED])
@pytest.mark.parametrize("lead", ["", LONG], ids=["sentence", "long-sentence"])
@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
def test_a_planted_figure_phone_or_link_split_over_many_deltas_is_never_shown(planted, unseen, lead, size):
    answer = f"Good news. Your refund: {lead}{planted} today. Thank you."
    gate = StreamGate(KNOWN)
    shown = stream(gate, [answer[i : i + size] for i in range(0, len(answer), size)])
    out = "".join(shown)
    assert unseen(out), out
    assert out.startswith("Good news. ") and out.endswith("Thank you.")
    assert gate.flagged and gate.text == out


# --- the property: whatever the sentences and however they are split ---------------

CLEAN = [
    "Hello, I can help with that. ",
    "Your balance is 100,000.00 ₸. ",
    "The Magnum charge was 18,760.00 ₸. ",
    "Your dispute D-1 is in review. ",
    "Disputes close after 120 days. ",
    "Anything else?\n",
    "Вот ваша выписка. ",
    "Остаток: 100 000,00 ₸. ",
    "Card •••• 4242 was used on 2026-10-03. ",
    "Card •••• 4242 is active. ",
]
PLANTED_SENTENCES = [
    ("Your refund of 99 999 ₸ is ready. ", lambda out: "99999" not in re.sub(r"\D", "", out)),
    ("Call +7 700 123 45 67 for it. ", lambda out: "7001234567" not in re.sub(r"\D", "", out)),
    ("You get fifteen thousand tenge back. ", lambda out: "fifteen" not in out),
    ("Claim it at example (dot) kz/claim now. ", lambda out: "example" not in out),
    ("Or at secure-pay dot com. ", lambda out: "secure-pay" not in out),
    ("Your balance is 18,760.00 ₸. ", lambda out: "balance is 18,760" not in out),
    ("Your dispute D-1 was approved. ", lambda out: "approved" not in out),
    ("Карта 4242 заблокирована. ", lambda out: "заблокирована" not in out),
    ("Вам вернут 2,5 млн ₸. ", lambda out: "2,5" not in out),
]


@given(
    sentences=st.lists(
        st.one_of(st.sampled_from(CLEAN).map(lambda s: (s, None)), st.sampled_from(PLANTED_SENTENCES)),
        min_size=1,
        max_size=6,
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=400), max_size=40),
)
def test_no_planted_item_is_shown_and_what_is_shown_is_what_is_stored(sentences, cuts):
    answer = "".join(sentence for sentence, _ in sentences)
    points = sorted({c for c in cuts if c < len(answer)} | {0, len(answer)})
    gate = StreamGate(KNOWN)
    out = "".join(stream(gate, [answer[a:b] for a, b in zip(points, points[1:], strict=False)]))
    assert out == gate.text
    for sentence, unseen in sentences:
        if unseen is None:
            assert sentence in out  # a clean sentence streams as it was written
        else:
            assert unseen(out), out
    # What was shown passes the final check whole, unchanged.
    checked = check_answer(out, known_text=KNOWN)
    assert checked.text == out and not checked.flagged, checked.problems


# Whatever the model writes, however it is split: the pieces of figures, contacts, claims
# and markup, run together. A sentence checked on its own never passes what the whole
# answer's check would change (where that check gives the same verdict on its own
# output: "8₸8" reads as "₸8", and its note leaves "8₸" to read as an amount).
SOUP = [
    "8",
    "7",
    "0",
    "12",
    "345",
    "99",
    "000",
    "18,760.00",
    "100 000,00",
    ".",
    ",",
    "-",
    " ",
    " ",
    " ",
    "\n",
    ". ",
    "! ",
    "(",
    ")",
    "evil",
    "example",
    "dot",
    "kz",
    "com",
    "at",
    "fifteen",
    "thousand",
    "tenge",
    "₸",
    "KZT",
    "balance",
    "in total",
    "is",
    "your",
    "dispute",
    "approved",
    "not yet",
    "[",
    "]",
    "/",
    "www.",
    "Call",
    "+",
    "·",
    "_",
    ":",
    "and",
    "a",
    "million",
    "k",
    "T-1",
    "D-1",
    "•••• ",
    "https://",
    "@",
    "[.]",
    "(dot)",
    "тг.",
    "млн",
    "тысяч",
    "пятнадцать",
    "остаток",
    "спор",
    "одобрен",
    "%",
    "days",
    "«",
    "»",
    "\u200b",
    "\u034f",
    "hxxp://",
    "[at]",
    "![",
    "](",
    "<img ",
    ">",
    "*",
    "…",
    "2026-10-03",
    "and then we went",
    "was",
    "refunded",
    "rejected",
    "отклонён",
    "D-2",
    "will be",
    "card",
    "4242",
    "blocked",
]


@given(
    tokens=st.lists(st.sampled_from(SOUP), min_size=1, max_size=120),
    cuts=st.lists(st.integers(min_value=1, max_value=600), max_size=60),
    piece_chars=st.sampled_from([12, 30, 200]),
)
@example(tokens=["тг.", " ", "8"], cuts=[], piece_chars=12)  # a currency, then its figure
def test_what_is_shown_passes_the_whole_answers_check_unchanged(tokens, cuts, piece_chars):
    answer = "".join(tokens)
    once = check_answer(answer, known_text=KNOWN).text
    assume(check_answer(once, known_text=KNOWN).text == once)
    points = sorted({c for c in cuts if c < len(answer)} | {0, len(answer)})
    gate = StreamGate(KNOWN, piece_chars=piece_chars)
    out = "".join(stream(gate, [answer[a:b] for a, b in zip(points, points[1:], strict=False)]))
    assert out == gate.text
    checked = check_answer(out, known_text=KNOWN)
    assert checked.text == out and not checked.flagged, (answer, checked.text)


# --- the agent: the stored answer is exactly what was streamed ----------------------


def streamed(events) -> str:
    return "".join(e.text for e in events if e.kind == "token")


def test_the_stored_answer_is_exactly_what_was_streamed(alice_conversation, say):
    model = ScriptedModel(
        text(
            "Hello. You were refunded 99,999.00 KZT yesterday. Call +7 700 123 45 67 now. Thanks for waiting."
        )
    )
    answer, events = say(alice_conversation, "where is my refund?", client=model.client())
    assert streamed(events) == answer.text
    assert answer.text == (
        "Hello. You were refunded [amount removed] yesterday. Call "
        "[phone number removed] now. Thanks for waiting. "
    )
    final = events[-1]
    assert final.kind == "final" and final.text == answer.text
    assert "phone number" in answer.flagged and "99999.00" in answer.flagged
    assert (
        ToolCallTrace.objects.get(event="flagged")
        .result["original"]
        .startswith("Hello. You were refunded 99,999.00 KZT")
    )


def test_a_sentence_before_a_tool_call_is_shown_before_its_table_and_kept(alice_conversation, say):
    model = ScriptedModel(
        exact_stream("Let me look ", "that up.", tool_call={"name": "list_cards", "arguments": "{}"}),
        exact_stream("You have ", "two cards."),
    )
    answer, events = say(alice_conversation, "show my cards", client=model.client())
    kinds = [(e.kind, e.text) for e in events if e.kind in ("token", "tool")]
    assert kinds[:2] == [("token", "Let me look that up."), ("tool", "list_cards")]
    assert streamed(events) == answer.text == "Let me look that up.\nYou have two cards."


@pytest.mark.django_db(transaction=True)  # the turn runs on a thread of its own
def test_the_agent_streams_sentence_by_sentence_from_a_model_over_http(alice_conversation):
    """The real SDK's stream from a loopback server that holds its last sentence: the
    first sentences reach the customer while the model has not written the last."""
    server = PacedServer(["Hello, Alice. ", "Your cards are listed below. ", "Anything else?"])
    serve_in_thread(server)
    config = ModelConfig(
        model="paced-model", base_url=f"{server.url}/v1", api_key="k", timeout=CAP_SECONDS, max_retries=0
    )
    from llm.client import make_client

    message, _ = message_customer_add(conversation=alice_conversation, text="hello")
    shown: list[str] = []
    first_two = threading.Event()

    def on_event(event):
        if event.kind == "token":
            shown.append(event.text)
            if "".join(shown) == "Hello, Alice. Your cards are listed below. ":
                first_two.set()

    answer: list = []
    turn = threading.Thread(
        target=lambda: answer.append(
            run_turn(
                user=alice_conversation.customer.user,
                conversation=alice_conversation,
                customer_message=message,
                on_event=on_event,
                client=make_client(config),
            )
        )
    )
    try:
        turn.start()
        assert server.held.wait(CAP_SECONDS)
        assert first_two.wait(CAP_SECONDS), shown  # shown while the model is held
        assert not server.last_written.is_set()
    finally:
        server.go_on.set()
        turn.join(CAP_SECONDS)
        server.shutdown()
        server.server_close()
    assert answer and answer[0].text == "".join(shown) == (
        "Hello, Alice. Your cards are listed below. Anything else?"
    )


def test_the_agent_streams_the_cards_state_from_the_bank_escaped(alice_conversation, say, monkeypatch):
    """A card's false state is streamed as the card's own state (its chip's word), and
    that word reaches the page escaped like every other piece of the answer."""
    monkeypatch.setitem(rows.CARD_STATE_WORDS, "active", "<b>active</b>")
    model = ScriptedModel(call("list_cards", {}), text("Your card •••• 4242 is blocked now. Anything else?"))
    answer, events = say(alice_conversation, "is my card blocked?", client=model.client())
    assert streamed(events) == answer.text == ("Your card •••• 4242 is <b>active</b> now. Anything else? ")
    assert "the card's state is shown in its place" in answer.flagged
    html = "".join(
        render_event(TurnEvent("token", text=e.text), turn="a" * 12, conversation=alice_conversation)
        for e in events
        if e.kind == "token"
    )
    assert "&lt;b&gt;active&lt;/b&gt;" in html and "<b>" not in html


def test_the_agent_streams_a_disputes_status_from_its_tool_result(alice_conversation, say):
    Dispute.objects.create(
        reference="D-881",
        customer=alice_conversation.customer,
        transaction=Transaction.objects.get(reference="T-1003"),
        amount=Decimal("2500.50"),
        reason="not_received",
        idempotency_key=uuid.uuid4(),
    )
    model = ScriptedModel(
        call("get_disputes", {}), text("Your dispute D-881 was approved and refunded. Anything else?")
    )
    answer, events = say(alice_conversation, "how is my dispute?", client=model.client())
    assert streamed(events) == answer.text == "Your dispute D-881 was open. Anything else? "
    assert "the bank's status is shown in its place" in answer.flagged
    trace = ToolCallTrace.objects.get(event="flagged")
    assert trace.result["original"].startswith("Your dispute D-881 was approved and refunded.")
