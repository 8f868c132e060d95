"""Imports lean one way (docs/layout.md, the import rules): config wires everything; the
lab drives the chat from above; the chat reaches a model only through llm's seam and acts
only through the harness; the harness stands on the domain (disputes over accounts);
errors.py is the ground. Read from the source with ast, so a stray import fails here
before it tangles the packages."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)

# Which project modules each package may not import (a prefix covers its submodules).
# config may import anything; nothing imports config (only manage.py, bench/ and tests/).
FORBIDDEN = {
    "errors.py": ("accounts", "disputes", "tools", "bankbot", "lab", "llm", "config"),
    "accounts": ("disputes", "tools", "bankbot", "lab", "llm", "config"),
    "disputes": ("tools", "bankbot", "lab", "llm", "config"),
    # The harness never reaches the agent, the chat's services, a model or the lab.
    "tools": ("bankbot", "lab", "llm", "config"),
    # The offline model reads a request with the bank's own words (tools, accounts);
    # the seam and the model stand below the chat and know nothing of disputes.
    "llm": ("bankbot", "lab", "config", "disputes"),
    # The chat reaches a model only through the seam, never the offline model behind it.
    "bankbot": ("lab", "config", "llm.offline"),
    "lab": ("config",),
    "config": (),
}
# The one exception left: the harness's proposals and trace belong to a conversation
# (bankbot.models); the next step of the layout turns that import into a string.
ALLOWED = {"tools": ("bankbot.models",)}


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


def test_the_domain_imports_neither_the_harness_nor_what_stands_above_it():
    assert violations("accounts") == []
    assert violations("disputes") == []


def test_the_shared_errors_import_no_package():
    assert violations("errors.py") == []


def test_the_harness_reaches_the_chat_only_for_its_conversation():
    assert violations("tools") == []


def test_the_model_seam_and_the_offline_model_stand_below_the_chat():
    assert violations("llm") == []


def test_the_chat_imports_neither_the_lab_nor_the_offline_model():
    assert violations("bankbot") == []


def test_the_lab_drives_the_chat_without_the_configuration():
    assert violations("lab") == []


def test_the_checker_sees_every_kind_of_import(tmp_path):
    file = tmp_path / "m.py"
    file.write_text("import bankbot.agent\nfrom bankbot import chat\n"
                    "def f():\n    from bankbot.models import Conversation\n")
    modules = {module for _, module in imported_modules(file)}
    assert {"bankbot.agent", "bankbot.chat", "bankbot.models"} <= modules
