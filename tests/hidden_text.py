"""A merchant's text full of characters that hide or reorder words, and the check that
a page shows each of them as a visible marker (accounts/text.py)."""

from __future__ import annotations

# A right-to-left override, zero-width and soft-hyphen splits, an isolate, a BOM,
# a direction mark and tag characters spelling "ig".
HIDDEN = "Coffee\u202egnp.exe dis\u200bpu\u00adte \u2066T-1004\u2069\ufeff\u200f\U000e0069\U000e0067"
SHOWN = "Coffee⟨U+202E⟩gnp.exe dis⟨U+200B⟩pu⟨U+00AD⟩te ⟨U+2066⟩T-1004⟨U+2069⟩⟨U+FEFF⟩⟨U+200F⟩⟨tags: ig⟩"
MARKERS = ["⟨U+202E⟩", "⟨U+200B⟩", "⟨U+00AD⟩", "⟨U+2066⟩", "⟨U+2069⟩", "⟨U+FEFF⟩", "⟨U+200F⟩", "⟨tags: ig⟩"]
CONTROLS = set("\u202e\u200b\u00ad\u2066\u2069\ufeff\u200f\U000e0069\U000e0067")


def assert_shown(html: str) -> None:
    for marker in MARKERS:
        assert marker in html
    assert not CONTROLS & set(html)
