from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from tests.project.helpers import SETTINGS_FILE


@pytest.fixture
def load_settings(monkeypatch: pytest.MonkeyPatch):
    """Execute config/settings.py afresh with the given environment, without touching
    the settings the test run itself uses. Pass name=None to unset a variable."""

    def load(**env: str | None) -> ModuleType:
        for name, value in env.items():
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        spec = importlib.util.spec_from_file_location("bankbot_settings_probe", SETTINGS_FILE)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
