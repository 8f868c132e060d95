"""No test module imports from a conftest.py (docs/design.md, "What keeps the design true"): a conftest
holds fixtures and hooks, which pytest hands to the tests itself; plain helpers live in
helpers.py modules beside the tests and in tests/factories.py, where an import can name
them. Read with ast, so an import inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def conftest_imports(path: Path) -> list[tuple[int, str]]:
    """Every import in a file that names a conftest module, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if "conftest" in a.name.split(".")]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if "conftest" in (node.module or "").split("."):
                found.append((node.lineno, module))
            else:
                found += [(node.lineno, f"{module}.{a.name}") for a in node.names if a.name == "conftest"]
    return found


def test_no_test_module_imports_from_a_conftest() -> None:
    wrong = [
        f"{path.relative_to(TESTS.parent)}:{line} imports {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, module in conftest_imports(path)
    ]
    assert wrong == [], "move the helper to a helpers.py module or tests/factories.py:\n" + "\n".join(wrong)


def test_the_check_sees_every_kind_of_conftest_import(tmp_path: Path) -> None:
    file = tmp_path / "m.py"
    file.write_text(
        "from tests.chat.conftest import frame\n"
        "from .conftest import scenario\n"
        "import tests.conftest\n"
        "from tests.lab import conftest\n"
        "def f():\n"
        "    from ..conftest import days_ago\n"
        "from tests.chat.helpers import frame\n"
    )
    assert [line for line, _ in conftest_imports(file)] == [1, 2, 3, 4, 6]
