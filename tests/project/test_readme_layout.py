"""The README's layout names only files and folders that exist, each where it says."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
README = ROOT / "README.md"
BLOCK_START = "```\nmanage.py  pyproject.toml"
# A line that opens a top-level entry: "bankbot/    settings ...", "errors.py   DomainError".
ENTRY = re.compile(r"^([\w.-]+/?)\s{2,}", re.M)
NAMED = re.compile(r"\b([\w-]+(?:/[\w-]+)*(?:\.py|/))(?=[\s,;:)]|$)")


def layout() -> dict[str, str]:
    """Each top-level entry of the layout block, with the text that describes it."""
    text = README.read_text(encoding="utf-8")
    start = text.index(BLOCK_START) + 4
    block = text[start : text.index("```", start)]
    entries = {}
    for part in re.split(r"\n(?=[\w.-]+/?\s{2,})", block):
        match = ENTRY.match(part)
        if match:
            entries[match.group(1)] = part[match.end() :]
    return entries


def test_every_top_level_entry_exists():
    entries = layout()
    packages = {"errors.py", "config/", "bankbot/", "lab/", "llm/", "accounts/", "disputes/", "tools/"}
    assert packages <= set(entries)
    assert [entry for entry in entries if not (ROOT / entry).exists()] == []


def test_every_module_and_folder_a_package_names_is_in_it():
    missing = []
    for entry, text in layout().items():
        if not entry.endswith("/") or entry in ("bin/", "docs/", "bench/", "tests/"):
            continue
        for name in NAMED.findall(text):
            if not ((ROOT / entry / name).exists() or (ROOT / name).exists()):
                missing.append(f"{entry}{name}")
    assert missing == []
