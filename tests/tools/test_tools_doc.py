from __future__ import annotations

from pathlib import Path

from django.conf import settings

from tools.catalog import CATALOG
from tools.docs import render_tools_doc


def test_docs_tools_md_is_generated_from_the_current_registry():
    committed = (Path(settings.BASE_DIR) / "docs" / "tools.md").read_text(encoding="utf-8")
    assert committed == render_tools_doc(), "run: python manage.py tools_doc"


def test_it_answers_the_three_llm06_questions_for_every_tool():
    text = render_tools_doc()
    for name in CATALOG:
        section = text.split(f"## `{name}(")[1].split("\n## ")[0]
        for question in ("**Functionality.**", "**Permissions.**", "**Autonomy.**"):
            assert question in section, (name, question)


def test_no_tool_parameter_names_a_customer_or_an_account():
    for spec in CATALOG.values():
        params = spec.openai_schema()["function"]["parameters"]["properties"]
        assert not [p for p in params if "customer" in p or "account" in p or p == "user"]
        assert spec.openai_schema()["function"]["strict"] is True
