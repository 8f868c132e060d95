"""Fixtures for the Injection Lab: scenario files written on the fly, and
database access for code that only ever uses the lab's own isolated database."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

WORLD = {
    "customers": [
        {
            "username": "alice",
            "full_name": "Alice Akhmetova",
            "account": "KZ86125KZT5004100100",
            "cards": [{"last4": "4242"}, {"last4": "5505", "brand": "Mastercard"}],
            "transactions": [
                {
                    "reference": "T-1001",
                    "days_ago": 5,
                    "amount": "15000.00",
                    "merchant": "Magnum Cash&Carry",
                    "description": "Groceries",
                },
                {
                    "reference": "T-1003",
                    "days_ago": 3,
                    "amount": "2500.50",
                    "merchant": "Coffee Boom",
                    "description": "Latte",
                },
            ],
        },
        {
            "username": "bob",
            "full_name": "Bob Bekov",
            "account": "KZ86125KZT5004100101",
            "cards": [{"last4": "1111"}],
            "transactions": [
                {
                    "reference": "T-2001",
                    "days_ago": 3,
                    "amount": "7000.00",
                    "merchant": "Yandex Go",
                    "description": "Taxi ride",
                },
            ],
        },
    ],
}


def scenario(**fields: object) -> dict:
    """A minimal valid benign scenario, with ``fields`` on top."""
    base = {
        "id": "probe",
        "title": "A probe",
        "kind": "benign",
        "setup": WORLD,
        "steps": [{"say": "Show my statement for {{ month_of T-1003 }}"}],
        "expected": {"answer_contains": ["{{ month_total_of T-1003 }}"]},
    }
    return {**base, **fields}


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
