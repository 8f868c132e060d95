"""Imports lean one way (DESIGN.md, Layout): the lab and the offline model → the chat
→ the harness → the domain, never back. Read from the source with ast, so a stray
import fails here before it tangles the packages."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)

# Which project modules each package may not import (a prefix covers its submodules).
FORBIDDEN = {
    "errors.py": ("accounts", "disputes", "tools", "bankbot"),
    "accounts": ("disputes", "tools", "bankbot"),
    "disputes": ("tools", "bankbot"),
    # The harness depends on the chat only through the conversation a proposal
    # belongs to (bankbot.models); never on the agent, the chat's services, the
    # offline model or the lab.
    "tools": ("bankbot",),
}
ALLOWED = {"tools": ("bankbot.models",)}
# The chat (bankbot/ but for what sits above it) never imports what drives it; the one
# seam to a model plugs the offline model in (bankbot/llm/client.py), and the commands
# that run the lab and serve the offline model are entry points, not the chat.
ABOVE_THE_CHAT = ("bankbot.lab", "bankbot.offline")
ENTRY_POINTS = ("bankbot/lab/", "bankbot/offline/", "bankbot/management/", "bankbot/llm/client.py")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every absolute module a file imports, with its line; ``from x import y``
    counts as x and as x.y (y may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _files(top: str) -> list[Path]:
    base = ROOT / top
    files = [base] if base.is_file() else sorted(base.rglob("*.py"))
    return [file for file in files if "migrations" not in file.parts]


def violations(package: str) -> list[str]:
    wrong = []
    for file in _files(package):
        for line, module in imported_modules(file):
            if any(_within(module, allowed) for allowed in ALLOWED.get(package, ())):
                continue
            if any(_within(module, forbidden) for forbidden in FORBIDDEN[package]):
                wrong.append(f"{file.relative_to(ROOT)}:{line} imports {module}")
    return sorted(set(wrong))


def chat_violations() -> list[str]:
    wrong = []
    for file in _files("bankbot"):
        name = str(file.relative_to(ROOT))
        if name.startswith(ENTRY_POINTS):
            continue
        for line, module in imported_modules(file):
            if any(_within(module, above) for above in ABOVE_THE_CHAT):
                wrong.append(f"{name}:{line} imports {module}")
    return sorted(set(wrong))


def test_the_domain_imports_neither_the_harness_nor_the_chat():
    assert violations("accounts") == []
    assert violations("disputes") == []


def test_the_shared_errors_import_no_package():
    assert violations("errors.py") == []


def test_the_harness_reaches_the_chat_only_for_its_conversation():
    assert violations("tools") == []


def test_the_chat_imports_neither_the_lab_nor_the_offline_model():
    assert chat_violations() == []


def test_the_checker_sees_every_kind_of_import(tmp_path):
    file = tmp_path / "m.py"
    file.write_text("import bankbot.agent\nfrom bankbot import chat\n"
                    "def f():\n    from bankbot.models import Conversation\n")
    modules = {module for _, module in imported_modules(file)}
    assert {"bankbot.agent", "bankbot.chat", "bankbot.models"} <= modules
