"""Imports lean one way (docs/design.md, the layers and their import rules): config
wires everything; the lab drives the chat from above; the chat reaches a model only
through llm's seam and acts only through the harness; the harness stands on the domain
(disputes over accounts); errors.py is the ground. Read from the source with ast, so a
stray import fails here before it tangles the packages."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)

# Which project modules each package may not import (a prefix covers its submodules).
# config may import anything; nothing imports config (only manage.py, bench/ and tests/).
FORBIDDEN = {
    "errors.py": ("accounts", "disputes", "tools", "bankbot", "support", "lab", "llm", "config"),
    "accounts": ("disputes", "tools", "bankbot", "support", "lab", "llm", "config"),
    "disputes": ("tools", "bankbot", "support", "lab", "llm", "config"),
    # The harness never reaches the chat, a model or the lab: its proposals' and trace's
    # conversation is a foreign key named by its string ("bankbot.Conversation").
    "tools": ("bankbot", "support", "lab", "llm", "config"),
    # The offline model reads a request with the bank's own words (tools, accounts);
    # the seam and the model stand below the chat and know nothing of disputes.
    "llm": ("bankbot", "support", "lab", "config", "disputes"),
    # The chat reaches a model only through the seam, never the offline model behind it;
    # it knows the people of support only through its own seam (bankbot/handover.py).
    "bankbot": ("support", "lab", "config", "llm.offline"),
    # Support staff take over a conversation from above the chat: never through a model.
    "support": ("lab", "config", "llm"),
    "lab": ("config",),
    "config": (),
}
# Outside the rules: the suite, the benchmarks and manage.py import what they exercise.
OUTSIDE = {"tests", "bench", "manage.py"}


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


def top_level_code() -> set[str]:
    """The project's top-level Python modules and folders (any folder with Python in it,
    package or not), but those outside the rules."""
    found = {file.name for file in ROOT.glob("*.py")}
    found |= {
        folder.name
        for folder in ROOT.iterdir()
        if folder.is_dir()
        and not folder.name.startswith((".", "_"))
        and not (folder / "pyvenv.cfg").exists()  # a virtualenv, whatever its name
        and next(folder.rglob("*.py"), None) is not None
    }
    return found - OUTSIDE


def violations(package: str) -> list[str]:
    wrong = []
    for file in _files(package):
        for line, module in imported_modules(file):
            if any(_within(module, forbidden) for forbidden in FORBIDDEN[package]):
                wrong.append(f"{file.relative_to(ROOT)}:{line} imports {module}")
    return sorted(set(wrong))


def test_the_domain_imports_neither_the_harness_nor_what_stands_above_it():
    assert violations("accounts") == []
    assert violations("disputes") == []


def test_the_shared_errors_import_no_package():
    assert violations("errors.py") == []


def test_the_harness_imports_nothing_of_the_chat_the_models_or_the_lab():
    assert violations("tools") == []


def test_the_model_seam_and_the_offline_model_stand_below_the_chat():
    assert violations("llm") == []


def test_the_chat_imports_neither_the_lab_nor_the_offline_model():
    assert violations("bankbot") == []


def test_support_takes_over_from_above_the_chat_and_never_through_a_model():
    assert violations("support") == []


def test_the_lab_drives_the_chat_without_the_configuration():
    assert violations("lab") == []


def test_every_top_level_package_has_a_row():
    # A new folder (or top-level module) cannot go unchecked: it needs its row above.
    assert top_level_code() == set(FORBIDDEN)


def test_nothing_imports_the_configuration():
    # config wires everything and is imported only by manage.py, bench/ and tests/; read
    # apart from FORBIDDEN's rows, so a row that forgets "config" cannot let it through.
    wrong = sorted(
        f"{file.relative_to(ROOT)}:{line} imports {module}"
        for top in top_level_code() - {"config"}
        for file in _files(top)
        for line, module in imported_modules(file)
        if _within(module, "config")
    )
    assert wrong == []


def test_the_checker_sees_every_kind_of_import(tmp_path):
    file = tmp_path / "m.py"
    file.write_text(
        "import bankbot.agent\nfrom bankbot import chat\n"
        "def f():\n    from bankbot.models import Conversation\n"
    )
    modules = {module for _, module in imported_modules(file)}
    assert {"bankbot.agent", "bankbot.chat", "bankbot.models"} <= modules
