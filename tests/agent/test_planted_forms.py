"""Planted figures, phone numbers and links in the written forms the answer check once
missed (issue 23, point 1): generated, and none reaches the customer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.text import HIDDEN_RE
from bankbot.output_checks import check_answer

KNOWN = ['{"balance_kzt": "100000.00", "transactions": [{"amount_kzt": "18760.00"}]}']
HIDDEN = ["\u200b", "\u034f", "\u2060", "\ufe0f", "\u00ad", "\u3164"]


def shown(answer: str) -> str:
    return HIDDEN_RE.sub("", check_answer(answer, known_text=KNOWN).text)


@given(whole=st.integers(1, 999), cents=st.integers(0, 99),
       scale=st.sampled_from(["m", "M", "mln", "mn", " million", " млн", " млн.", " лям"]),
       currency=st.sampled_from(["", " ₸", " KZT", " тенге"]))
@settings(max_examples=150, deadline=None)
def test_a_figure_with_a_short_scale_is_read_and_removed(whole, cents, scale, currency):
    figure = f"{whole}.{cents:02d}" if cents else str(whole)
    answer = check_answer(f"Your refund of {figure}{scale}{currency} is on its way.",
                          known_text=KNOWN)
    assert answer.flagged and f"{figure}{scale}" not in answer.text


@given(digits=st.text("0123456789", min_size=10, max_size=11),
       separator=st.sampled_from(["-", " ", ".", " - ", "/", "·", "_"]),
       hidden=st.sampled_from(["", *HIDDEN]), prefix=st.sampled_from(["", "+"]))
@settings(max_examples=200, deadline=None)
def test_a_phone_number_spelt_digit_by_digit_is_removed(digits, separator, hidden, prefix):
    planted = prefix + (hidden + separator).join(digits)
    text = shown(f"Call our refund desk: {planted} today.")
    assert digits not in "".join(ch for ch in text if ch.isdigit())


@given(host=st.sampled_from(["example", "refund-kz", "bank-help", "secure-pay"]),
       dot=st.sampled_from(["[.]", "(.)", "{.}", " [dot] ", " (dot) ", " dot ", "[dot]",
                            " точка ", "(точка)"]),
       tld=st.sampled_from(["kz", "com", "ru", "net", "xyz"]),
       path=st.sampled_from(["", "/claim", "/refund?id=1"]),
       scheme=st.sampled_from(["", "hxxp://", "hxxps://", "https://"]))
@settings(max_examples=200, deadline=None)
def test_a_defanged_link_is_removed(host, dot, tld, path, scheme):
    answer = check_answer(f"Claim it at {scheme}{host}{dot}{tld}{path} now.", known_text=KNOWN)
    assert answer.flagged and host not in answer.text


@given(at=st.sampled_from(["[at]", " (at) ", "{at}", " [собака] "]),
       dot=st.sampled_from([".", "[.]", " [dot] "]))
@settings(max_examples=40, deadline=None)
def test_a_defanged_address_is_removed(at, dot):
    answer = check_answer(f"Write to refunds{at}secure-pay{dot}kz today.", known_text=KNOWN)
    assert answer.flagged and "secure-pay" not in answer.text


def test_the_banks_own_figures_and_ordinary_words_pass():
    answer = check_answer("Your balance is 100,000.00 ₸; the Magnum charge was 18.76k. "
                          "That dot on the map is the shop. Dispute within 120 days.",
                          known_text=KNOWN)
    assert not answer.flagged, answer.problems


# --- a real figure claimed as another fact, a status that is not the dispute's --------

RESULTS = ['{"accounts": [{"account": "0100", "balance_kzt": "100000.00"}], "count": 1}',
           '{"transactions": [{"reference": "T-1", "amount_kzt": "18760.00"},'
           ' {"reference": "T-2", "amount_kzt": "4200.00"}], "total_kzt": "22960.00"}',
           '{"disputes": [{"reference": "D-1", "status": "in_review"}]}',
           '{"status": "awaiting_confirmation", "action": {"transaction": "T-1", "amount": "5000.00"}}',
           '{"cards": [{"card": "4242", "status": "active"}, {"card": "6006", "status": "blocked"}]}',
           '{"status": "awaiting_confirmation", "proposal": "P-1",'
           ' "summary": "Dispute 300.00 ₸ of transaction T-2 (2026-11-11): wrong amount"}']


@pytest.mark.parametrize(("answer", "marker"), [
    # Where the bank holds one such fact, it is written in the false figure's place.
    ("Your balance is 18,760.00 ₸.", "100,000.00\u00a0₸"),
    ("Остаток на счёте: 18 760,00 ₸.", "100,000.00\u00a0₸"),
    ("In total you spent 18,760.00 ₸ this month.", "22,960.00\u00a0₸"),
    ("Итого вы потратили 4 200,00 ₸.", "22,960.00\u00a0₸"),
    ("Your dispute D-1 was approved and refunded.", "[status removed]"),
    ("Ваш спор D-1 одобрен.", "[status removed]"),
    ("The claim was rejected.", "[status removed]"),
    ("T-1 was 4,200.00 ₸.", "[amount removed]"),  # T-2's amount said of T-1 (which has two)
    ("Операция T-2 на 18 760,00 ₸ — это Magnum.", "[amount removed]"),  # two facts of T-2
    ("Your card •••• 4242 is blocked now.", "[status removed]"),
    ("Карта 6006 активна, можно платить.", "[status removed]"),
])
def test_a_figure_or_a_status_that_is_not_the_fact_claimed_is_removed(answer, marker):
    checked = check_answer(answer, known_text=RESULTS)
    assert checked.flagged and marker in checked.text, checked.text
    assert "18,760" not in checked.text and "18 760" not in checked.text


def test_the_customer_is_told_the_banks_figure_replaced_the_false_one():
    checked = check_answer("Your balance is 18,760.00 ₸.", known_text=RESULTS)
    assert checked.text == "Your balance is 100,000.00\u00a0₸."
    assert checked.problems == ["The assistant stated a balance that is not your balance; "
                                "the bank's figure is shown in its place."]


@pytest.mark.parametrize("answer", [
    "Your balance is 100,000.00 ₸.",
    "In total you spent 22,960.00 ₸; the biggest charge was 18,760.00 ₸.",
    "Your dispute D-1 is in review; it has not been approved yet.",
    "Остаток: 100 000,00 ₸. Всего 22 960,00 ₸.",
    "T-1 was 18,760.00 ₸, and T-2 was 4,200.00 ₸.",
    "I prepared a dispute of 5,000.00 ₸ on T-1.",  # the part the bank attached to T-1
    "Dispute 300.00 ₸ of transaction T-2, as you asked.",  # the proposal's own summary
    "T-9 is not in your results; the Magnum charge was 4,200.00 ₸.",  # no fact about T-9
    "Card 4242 is active and card 6006 is blocked.",
    "Card 4242 will be blocked once you confirm.",  # not a state said to hold now
    "Карта 4242 не заблокирована.",  # "not blocked" claims nothing
    "Card 9999 is blocked.",  # a card the bank's data never showed is not judged here
])
def test_true_claims_pass(answer):
    checked = check_answer(answer, known_text=RESULTS)
    assert not checked.flagged, checked.problems
