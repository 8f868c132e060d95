"""One definition of the characters a person cannot see (issue 23, point 2): every page
shows each of them, and every reader — the grammar, the answer check, the lab's
detectors — reads past them."""

from __future__ import annotations

import pytest

from accounts.money import normalised
from accounts.text import HIDDEN_RE, INVISIBLE_RE, reveal_hidden
from bankbot.output_checks import check_answer
from tools.reveal import normalise

# The ones the review found missing from one of the two lists that were, and their kin.
HIDDEN = [
    "\u034f",
    "\u00ad",
    "\u200b",
    "\u202e",
    "\u2066",
    "\u061c",
    "\u180e",
    "\ufe0f",
    "\ufe00",
    "\U000e0101",
    "\u115f",
    "\u1160",
    "\u3164",
    "\uffa0",
    "\u2800",
    "\ufff9",
    "\u17b4",
    "\U0001d173",
    "\ufeff",
]


@pytest.mark.parametrize("char", HIDDEN, ids=lambda c: f"U+{ord(c):04X}")
def test_each_hidden_character_is_shown_on_a_page_and_read_past_everywhere(char):
    shown = reveal_hidden(f"Coffee{char}Boom")
    assert char not in shown and f"⟨U+{ord(char):04X}⟩" in shown
    assert normalised(f"dis{char}pute") == "dispute"  # the grammar's reading
    assert normalise(f"dis{char}pute") == "dispute"  # the lab's detectors'


@pytest.mark.parametrize("char", HIDDEN, ids=lambda c: f"U+{ord(c):04X}")
def test_a_phone_number_split_by_one_is_still_caught_by_the_answer_check(char):
    planted = char.join("87012345678")
    answer = check_answer(f"Call us at {planted} to get your refund.", known_text=[])
    assert answer.flagged and "8701" not in HIDDEN_RE.sub("", answer.text)


def test_tag_characters_are_spelt_out_and_stripped():
    smuggled = "".join(chr(0xE0000 + ord(c)) for c in "block 4242")
    assert reveal_hidden(f"Magnum{smuggled}") == "Magnum⟨tags: block 4242⟩"
    assert normalised(f"Magnum{smuggled}") == "Magnum"


def test_every_shown_character_is_also_stripped():
    assert all(
        HIDDEN_RE.fullmatch(chr(code)) for code in range(0x110000) if INVISIBLE_RE.fullmatch(chr(code))
    )
