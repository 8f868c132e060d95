"""The docs are reference, not a log: README.md and docs/*.md describe the project as it
is, and git keeps how it got there. So they name no tracker issue, no commit, no file
outside the repository and no "Done:" list; and every repository path that
docs/design.md names exists.

What counts, precisely:
- *An issue*: "issue" (or "issues") followed by a number, "#" allowed, any case:
  "Issue 14", "issue #3".
- *A commit hash*: a run of 7 to 40 lowercase hex characters standing alone, with at
  least one digit and at least one letter a-f. Git abbreviates hashes to 7 or more
  lowercase characters and writes 40 in full. Standing alone means not inside a longer
  word, not one group of a hyphenated token (a UUID's groups, "T-1001") and not after
  "#" (a hex colour such as "#aabbccdd"). Digits alone read as a number ("31536000"),
  letters alone as a word ("defaced"), so neither counts: a hash that happens to be all
  digits slips through, the price of no false alarms. A sha256 digest is 64 characters,
  longer than any commit hash, so it is not one. The rule holds in code blocks too: a
  hash is no more reference there than in prose.
- *A link out of the repository*: "../shared/", which no clone has.
- *A "Done:" line*: a line whose first word is "Done:", after a list marker or
  emphasis if any ("- Done: …", "**Done:** …").

Every page is checked: README.md and each docs/*.md.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DOCS = ROOT / "docs"

ISSUE = re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE)
HASH = re.compile(r"(?<![\w#-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])")
SHARED = re.compile(re.escape("../shared/"))
DONE = re.compile(r"^\s*(?:(?:[-*+>]|\d+[.)])\s+)*(?:\*\*|__|\*|_)?Done(?:\*\*|__|\*|_)?:", re.MULTILINE)
RULES = {
    "an issue number": ISSUE,
    "a commit hash": HASH,
    "a link to ../shared/": SHARED,
    "a Done: line": DONE,
}

# A repository path in backticks: no whitespace; not a URL path (`/healthz`), a URL
# (`https://…`) or a route pattern (`ws/chat/<id>/`); and either a slash in it
# (`tools/catalog/`) or a file's extension (`errors.py`). `*` is a glob.
BACKTICKED = re.compile(r"`([^`\s]+)`")
EXTENSION = re.compile(r"\.(py|md|html|txt|yaml|yml|json|toml|lock|js|css|po|png|svg)$")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def reference_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def log_marks(text: str) -> list[str]:
    """Each issue number, commit hash, ../shared/ link and Done: line in ``text``,
    with its line number."""
    found = []
    for what, rule in RULES.items():
        for match in rule.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"line {line}: {what} ({match.group().strip()!r})")
    return found


def repo_paths(text: str) -> list[str]:
    return [
        token
        for token in BACKTICKED.findall(text)
        if not token.startswith("/")
        and "://" not in token
        and "<" not in token
        and ("/" in token or EXTENSION.search(token))
    ]


def _exists(path: str) -> bool:
    if "*" in path:
        return next(ROOT.glob(path), None) is not None
    return (ROOT / path).exists()


def test_the_reference_pages_carry_no_log():
    pages = reference_pages()
    assert ROOT / "README.md" in pages and DOCS / "design.md" in pages
    found = {
        page.relative_to(ROOT).as_posix(): marks
        for page in pages
        if (marks := log_marks(page.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_checker_catches_each_mark_and_nothing_like_it():
    caught = [
        "Issue 14's four ratios",
        "see issue #3",
        "issues 22 and 23",
        "fixed in 618f3e5, with a test",
        "(commit 28f5891)",
        "at `ed031b2`",
        "a full hash 0123456789abcdef0123456789abcdef01234567 here",
        "Design: `../shared/DESIGN.md`",
        "- Done: the lab link",
        "Done: all of it",
        "**Done:** the card",
        "  1. Done: step one",
    ]
    passed = [
        "the issue's own rules",
        "a colour #aabbccdd and #ff00aa",
        "uuid 123e4567-e89b-12d3-a456-426614174000",
        "sha256:" + "0123456789abcdef" * 4,
        "HSTS for 31536000 seconds",
        "the card was defaced",
        "T-1001 and D-881",
        "2026-12-02 03:01 UTC",
        "Done with it: nothing",
        "nothing is Done: here",
        "in ../docs/ or shared/",
        "DEADBEEF1 in capitals",
    ]
    assert [text for text in caught if not log_marks(text)] == []
    assert [text for text in passed if log_marks(text)] == []


def test_every_path_the_design_names_exists():
    text = (DOCS / "design.md").read_text(encoding="utf-8")
    paths = sorted(set(repo_paths(text)))
    assert len(paths) > 40
    assert [path for path in paths if not _exists(path)] == []
    links = [link for link in LINK.findall(text) if "://" not in link]
    assert [link for link in links if not (DOCS / link).exists()] == []


def test_the_path_reader_takes_paths_only():
    text = (
        "`tools/catalog/` `errors.py` `lab/scenarios/*.yaml` `bin/demo` "
        "`/healthz` `ws/chat/<id>/` `https://example.org/x` `tools.grammar` "
        "`manage.py injectionlab` `DomainError` `BANKBOT_MODEL`"
    )
    assert repo_paths(text) == ["tools/catalog/", "errors.py", "lab/scenarios/*.yaml", "bin/demo"]
    assert _exists("lab/scenarios/*.yaml") and not _exists("lab/gone/*.yaml")
