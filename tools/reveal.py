"""Third-party text as a model "sees" it: the tricks that hide words from people undone.

Attackers split keywords with invisible characters, write "blосk" with Cyrillic
letters, use fullwidth forms, smuggle ASCII in Unicode tag characters or wrap an
instruction in base64. A keyword filter misses all of these; an LLM reads
straight through them. The compromised offline model reads external text through
this (llm/offline/injection.py), and provenance (tools/provenance.py) judges it as
read this way, so both see what an LLM would.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata

# Which characters hide text is one fact, kept where every page that shows such text reads it.
from accounts.text import TAG_RUN_RE, decode_tags, without_hidden

# Hyphens and dashes NFKC leaves alone; "T\u20111004" is still "T-1004".
DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63", "-"))
# Long runs of base64 alphabet (standard or URL-safe); ordinary words are shorter.
BASE64_RE = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")

# Look-alike letters (a hand-picked subset of Unicode's confusables.txt): enough
# for the Latin and Cyrillic words an attack here is written in. A package
# (confusable_homoglyphs, confusables) would only detect mixed scripts; the
# direction a word should be read in is still ours to decide.
CYRILLIC_TO_LATIN = {
    **dict(zip("аеорсухіјѕԁӏһԛԝ", "aeopcyxijsdlhqw", strict=True)),
    **dict(zip("АВЕКМНОРСТХУІЈЅ", "ABEKMHOPCTXYIJS", strict=True)),
}
GREEK_TO_LATIN = {
    **dict(zip("αοριυχνκ", "aopiuxvk", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
}
LATIN_TO_CYRILLIC = {
    **dict(zip("aeopcyx", "аеорсух", strict=True)),
    **dict(zip("ABEKMHOPCTXY", "АВЕКМНОРСТХУ", strict=True)),
}
TO_LATIN = str.maketrans({**CYRILLIC_TO_LATIN, **GREEK_TO_LATIN})
TO_CYRILLIC = str.maketrans(LATIN_TO_CYRILLIC)
LETTERS_RE = re.compile(r"[^\W\d_]+")


def reveal(text: str) -> str:
    """The text as a model 'sees' it: hidden characters decoded, look-alikes
    read as the letters they imitate, base64 unpacked.

    Decoded pieces go on their own lines so a pattern never straddles visible
    and hidden text by accident.
    """
    text = TAG_RUN_RE.sub(lambda run: "\n" + decode_tags(run.group()) + "\n", text)
    text = normalise(text)
    decoded = [normalise(piece) for chunk in BASE64_RE.findall(text) if (piece := _decode_base64(chunk))]
    return "\n".join([text, *decoded])


def normalise(text: str) -> str:
    """Invisible characters dropped, compatibility forms folded (NFKC turns
    fullwidth "ｄｉｓｐｕｔｅ" into "dispute"), dashes unified, look-alikes resolved."""
    text = without_hidden(text)
    text = unicodedata.normalize("NFKC", text).translate(DASHES)
    return LETTERS_RE.sub(lambda word: _one_script(word.group()), text)


def _one_script(word: str) -> str:
    """A word mixing scripts is read in the script its unmistakable letters
    belong to: "blосk" (Cyrillic о, с) is "block", "оспoрьте" (Latin o) is
    Russian. A word of one script, or of look-alikes only, is left alone."""
    latin = sum(1 for char in word if _is_latin(char) and char not in LATIN_TO_CYRILLIC)
    cyrillic = sum(1 for char in word if _is_cyrillic(char) and char not in CYRILLIC_TO_LATIN)
    if latin > cyrillic or (latin == cyrillic == 0 and any(_is_latin(char) for char in word)):
        return word.translate(TO_LATIN)
    if cyrillic > latin:
        return word.translate(TO_CYRILLIC)
    return word


def _is_latin(char: str) -> bool:
    return "a" <= char.lower() <= "z"


def _is_cyrillic(char: str) -> bool:
    return "\u0400" <= char <= "\u04ff" or "\u0500" <= char <= "\u052f"


def _decode_base64(chunk: str) -> str | None:
    standard = chunk.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        raw = base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    # Random words of 16+ letters also "decode"; only readable text counts.
    if len(text) < 6 or not all(char.isprintable() or char in "\n\t" for char in text):
        return None
    return text
