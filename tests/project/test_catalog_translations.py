"""The tool catalog's Russian lives in one place, tools/locale: every string a catalog
entry translates is there, and none is repeated in the root catalogue (two copies of
one translation drift apart, and the root one would silently win)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GETTEXT = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy"}


def catalog_strings() -> set[str]:
    found = set()
    for path in (ROOT / "tools" / "catalog").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in GETTEXT
                and node.args
                and isinstance(node.args[-1] if node.func.id.startswith("p") else node.args[0], ast.Constant)
            ):
                found.add((node.args[-1] if node.func.id.startswith("p") else node.args[0]).value)
    return found


def msgids(po: Path) -> set[str]:
    ids = set()
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        text = "\n".join(lines)
        match = re.search(r'^msgid ((?:"[^\n]*"\n?)+)', text, re.M)
        if match:
            ids.add("".join(re.findall(r'"(.*)"', match.group(1))))
    return ids - {""}


def test_the_catalogs_strings_are_translated_in_tools_locale_only():
    strings = catalog_strings()
    assert "Unblock…" in strings  # the parser finds them
    tools = msgids(ROOT / "tools" / "locale" / "ru" / "LC_MESSAGES" / "django.po")
    root = msgids(ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po")
    assert sorted(strings - tools) == []
    assert sorted(strings & root) == []
