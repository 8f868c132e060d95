"""Text others wrote (a merchant's name and description), shown so a person sees
every character in it.

Invisible characters split a word without a trace ("dis\u200bpute"), bidirectional
controls make text display in another order than it is stored, and Unicode tag
characters carry ASCII that renders as nothing. Wherever such text is shown — the
customer's statements and confirm cards, admin, the Injection Lab — each one is
replaced by a visible marker, so it can neither hide nor reorder what is around it.
Text from outside is also made storable (``without_nul``).
"""

from __future__ import annotations

import re
from typing import TypeVar, cast

_V = TypeVar("_V")

# The one definition of the characters a person cannot see (issue 23): soft hyphen,
# combining grapheme joiner, Arabic letter mark, Hangul fillers (U+115F, U+1160, U+3164,
# U+FFA0), Khmer inherent vowels, Mongolian variation selectors and vowel separator,
# zero-width spaces and joiners, direction marks, bidi embeddings and overrides
# (U+202A–U+202E) and isolates (U+2066–U+2069), word joiner and invisible operators,
# deprecated format characters, the braille blank, variation selectors (U+FE00–U+FE0F and
# the supplement), BOM, interlinear annotation marks, shorthand and musical format
# controls. The statement page, the chat, admin and the lab show each (``reveal_hidden``);
# the grammar, the answer check and every reader strip them (``HIDDEN_RE``).
_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0100-\U000e01ef"
)
INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]")
# Unicode "tag" characters mirror ASCII at U+E0000 + code point ("ASCII smuggling").
_TAGS = "\U000e0000-\U000e007f"
TAG_RUN_RE = re.compile(f"[{_TAGS}]+")
# Everything hidden, tags included: what is taken out before text is read.
HIDDEN_RE = re.compile(f"[{_INVISIBLE}{_TAGS}]")


def without_hidden(text: str) -> str:
    """The text with every character a person cannot see taken out."""
    return HIDDEN_RE.sub("", text)


def reveal_hidden(text: str) -> str:
    """'di\u200bspute' → 'di⟨U+200B⟩spute'; a run of tag characters → ⟨tags: the ASCII⟩."""
    text = TAG_RUN_RE.sub(lambda run: "⟨tags: " + decode_tags(run.group()) + "⟩", str(text))
    return INVISIBLE_RE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)


def decode_tags(run: str) -> str:
    """The ASCII a run of tag characters spells (the language and cancel tags dropped)."""
    return "".join(chr(ord(char) - 0xE0000) for char in run if 0xE0020 <= ord(char) <= 0xE007E)


def without_nul(value: _V) -> _V:
    """PostgreSQL text and jsonb cannot hold NUL, and a customer or a model can send
    one. Stored text keeps the evidence with U+FFFD in its place instead of failing.
    A str, dict or list comes back as a new plain one of the same shape (so the caller
    keeps its type: a TypedDict the same keys), anything else as it is."""
    if isinstance(value, str):
        return cast(_V, value.replace("\x00", "\ufffd"))
    if isinstance(value, dict):
        return cast(_V, {without_nul(k): without_nul(v) for k, v in value.items()})
    if isinstance(value, list):
        return cast(_V, [without_nul(v) for v in value])
    return value
