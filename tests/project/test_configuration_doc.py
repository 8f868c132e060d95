"""docs/configuration.md's table names every environment variable the code reads, and
no variable the code does not read."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DOC = ROOT / "docs" / "configuration.md"
READS = re.compile(r"""(?:env_\w+|_read\w*)\((?:environ,\s*)?["']([A-Z][A-Z0-9_]+)["']""")


def variables_read() -> set[str]:
    names = set()
    for path in [ROOT / "config" / "settings.py", ROOT / "llm" / "config.py"]:
        names |= set(READS.findall(path.read_text(encoding="utf-8")))
    names |= set(re.findall(r"\$\{([A-Z_]+):-", (ROOT / "bin" / "demo").read_text()))
    return names


def variables_documented() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("\n## Configuration\n")[1].split("\n## ")[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", table, re.MULTILINE))


def test_the_configuration_page_documents_every_variable_the_code_reads():
    read = variables_read()
    assert {"DATABASE_URL", "REDIS_URL", "BANKBOT_MODEL", "OPENAI_BASE_URL"} <= read
    assert read - variables_documented() == set()


def test_the_configuration_page_documents_no_variable_the_code_ignores():
    assert variables_documented() - variables_read() == set()
