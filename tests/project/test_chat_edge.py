"""The chat edge stays thin (issue 16): the consumer connects, receives and
broadcasts; parsing, rendering and outages live in their own modules."""

from __future__ import annotations

import ast
from pathlib import Path

CONSUMERS = Path(__file__).resolve().parents[2] / "bankbot" / "consumers.py"


def test_the_consumer_module_is_under_250_lines() -> None:
    lines = CONSUMERS.read_text().count("\n")
    assert lines < 250, f"bankbot/consumers.py has {lines} lines; move what is not the socket out"


def test_the_consumer_renders_and_parses_through_their_modules() -> None:
    tree = ast.parse(CONSUMERS.read_text())
    calls = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert "render_to_string" not in calls and "loads" not in calls  # fragments.py, chat_input.py
