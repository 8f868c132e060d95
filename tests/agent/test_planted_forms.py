"""Planted figures, phone numbers and links in the written forms the answer check once
missed (issue 23, point 1): generated, and none reaches the customer."""

from __future__ import annotations

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
