"""Fixtures for the Injection Lab: scenario files written on the fly, and
database access for code that only ever uses the lab's own isolated database."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml


@pytest.fixture
def write_yaml(tmp_path: Path):
    """write_yaml(data_or_text, name="x.yaml") → the path of a scenario file."""

    def write(data: object, name: str = "scenarios.yaml") -> Path:
        path = tmp_path / name
        text = (
            textwrap.dedent(data)
            if isinstance(data, str)
            else yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        )
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def lab_access(django_db_blocker):
    """The lab never uses the test database; it only needs the blocker lifted."""
    with django_db_blocker.unblock():
        yield
