"""docs/guarantees.md names tests and code that exist, and covers G1–G11."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DOC = ROOT / "docs" / "guarantees.md"
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
# A code pointer: a path (`tools/proposals.py`, `tools/catalog/`,
# `templates/bankbot/stream.html#receipt`: a template's partial) or a name
# (`proposal_claim`, `ReadTool.traced`, `agent._known_text`, `spec.run(ctx, ...)`);
# anything else in backticks (SQL, HTML, a header) is not one.
POINTER = re.compile(r"`([^`\n]+)`")
NAME = re.compile(r"([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?(?:\(.*\))?")
CODE = ("errors.py", "accounts", "disputes", "tools", "bankbot", "support", "config", "lab", "llm")


@dataclass
class Source:
    """What the project's code defines: names anywhere, members per class and per
    module, the string constants it uses (reason codes, events, constraint names),
    the names it imports (Django's), and the tests."""

    names: set[str] = field(default_factory=set)
    members: dict[str, set[str]] = field(default_factory=dict)
    strings: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)
    tests: set[str] = field(default_factory=set)

    def read(self, file: Path) -> None:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        module = self.members.setdefault(file.stem, set())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.names.add(node.name)
                module.add(node.name)
                if isinstance(node, ast.ClassDef):
                    self.members.setdefault(node.name, set()).update(_body_names(node.body))
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found = {t.id for t in targets if isinstance(t, ast.Name)}
                self.names |= found
                module |= found
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                self.strings.add(node.value)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                self.imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        self.names.add(file.stem)  # a module, or a management command

    def knows(self, pointer: str) -> bool:
        match = NAME.fullmatch(pointer)
        if match is None:
            return True  # not a name: SQL, HTML, a header
        owner, member = match.groups()
        if member is None:
            return owner in self.names | self.strings | self.imported | self.tests
        if owner in self.members:  # a class or a module of ours: the member is its own
            return member in self.members[owner]
        return owner in self.imported or member in self.names  # a variable's, or Django's


def _body_names(body: list[ast.stmt]) -> set[str]:
    names = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _source() -> Source:
    source = Source()
    for top in CODE:
        path = ROOT / top
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            source.read(file)
    for file in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        source.tests |= {
            n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    return source


def _is_path(pointer: str) -> bool:
    return "/" in pointer or re.fullmatch(r"[\w.-]+\.(py|md|html|js|css)(#[\w-]+)?", pointer) is not None


def _path_exists(pointer: str) -> bool:
    """A file or folder; ``page.html#name``: a template with that partial."""
    path, _, partial = pointer.partition("#")
    file = ROOT / path
    if not partial:
        return file.exists()
    return file.is_file() and f"partialdef {partial}" in file.read_text(encoding="utf-8")


def test_every_test_it_names_exists():
    text = DOC.read_text(encoding="utf-8")
    references = REFERENCE.findall(text)
    assert len(references) > 40
    missing = []
    for path, name in references:
        file = ROOT / path
        names = set()
        if file.exists():
            tree = ast.parse(file.read_text(encoding="utf-8"))
            names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        if name not in names:
            missing.append(f"{path}::{name}")
    assert missing == []


def test_every_module_and_name_it_points_at_exists():
    text = REFERENCE.sub("", DOC.read_text(encoding="utf-8"))
    pointers = sorted(set(POINTER.findall(text)) - {"file::test_name"})
    paths = [p for p in pointers if _is_path(p) and not p.startswith("../")]
    names = [p for p in pointers if not _is_path(p)]
    assert len(paths) > 15 and len(names) > 40
    source = _source()
    assert [p for p in paths if not _path_exists(p)] == []
    assert [n for n in names if not source.knows(n)] == []


def test_the_checker_catches_a_stale_pointer():
    source = _source()
    assert source.knows("proposal_claim") and source.knows("ReadTool.traced")
    assert source.knows("agent._known_text") and source.knows("OperationalError")
    assert not source.knows("proposal_claim_old") and not source.knows("ReadTool.retraced")
    assert not source.knows("agent.known_text_gone")
    assert _path_exists("tools/proposals.py") and _path_exists("tools/catalog/")
    assert _path_exists("templates/bankbot/stream.html#receipt")
    assert not _path_exists("lab/gone.py")
    assert not _path_exists("templates/bankbot/stream.html#gone")


def test_every_guarantee_has_code_and_tests():
    text = DOC.read_text(encoding="utf-8")
    for number in range(1, 12):
        section = text.split(f"## G{number} ")[1].split("\n## ")[0]
        assert "**Enforced by**" in section and "**Proven by**" in section
        assert REFERENCE.search(section), f"G{number} names no test"
