"""reveal_hidden: every character that hides or reorders text becomes a visible marker
(the one helper the customer's pages, admin and the Injection Lab share)."""

from __future__ import annotations

from accounts.text import reveal_hidden
from tests.hidden_text import HIDDEN, SHOWN


def test_it_marks_every_hidden_character():
    assert reveal_hidden(HIDDEN) == SHOWN
    for code in [
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        *range(0x200B, 0x2010),
        0x2060,
        0xFEFF,
        0x00AD,
    ]:
        assert reveal_hidden(f"a{chr(code)}b") == f"a⟨U+{code:04X}⟩b"


def test_it_leaves_ordinary_text_alone():
    assert reveal_hidden("Magnum Cash&Carry — «Продукты» 15 000 ₸") == (
        "Magnum Cash&Carry — «Продукты» 15 000 ₸"
    )
