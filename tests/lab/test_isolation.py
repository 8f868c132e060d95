"""The lab runs in its own temporary database and never touches the configured one."""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.core.management import call_command
from django.db import connection

from lab.isolation import isolated_database
from lab.loader import load_file
from lab.runner import run_scenario
from tests.lab.helpers import scenario


def row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def test_a_run_leaves_the_configured_database_untouched(alice, bob, write_yaml):
    before = row_counts()
    configured = connection.settings_dict["NAME"]
    [dispute] = load_file(
        write_yaml(
            scenario(
                steps=[{"say": "I don't recognise the 15000 KZT charge at Magnum, please dispute it"}],
                expected={"proposals": [{"tool": "raise_dispute", "transaction": "T-1001"}]},
            )
        )
    )
    result = run_scenario(dispute, harness="guarded", behaviour="confirm-all")
    assert result.utility, result.unmet
    assert result.end_state["diff"]["disputes_opened"], "the lab really wrote something"
    assert row_counts() == before
    assert connection.settings_dict["NAME"] == configured


def test_the_command_leaves_the_configured_database_untouched(alice, bob, write_yaml, capsys):
    before = row_counts()
    call_command("injectionlab", str(write_yaml(scenario())), "--jobs", "1", verbosity=0)
    assert row_counts() == before


def test_the_isolated_database_is_a_fresh_temporary_file(db):
    configured = connection.settings_dict["NAME"]
    with isolated_database() as path:
        assert connection.settings_dict["NAME"] == str(path) != configured
        assert path.exists()
        from accounts.models import Customer

        assert Customer.objects.count() == 0
    assert not Path(path).exists()
    assert connection.settings_dict["NAME"] == configured
