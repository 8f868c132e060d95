"""config.env: typed readers that refuse a value they cannot understand."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str

NAME = "BANKBOT_TEST_SETTING"


@pytest.fixture(autouse=True)
def _unset(monkeypatch):
    monkeypatch.delenv(NAME, raising=False)


@pytest.mark.parametrize("raw", ["1", "true", "YES", " on "])
def test_it_reads_true(monkeypatch, raw):
    monkeypatch.setenv(NAME, raw)

    assert env_bool(NAME, False) is True


@pytest.mark.parametrize("raw", ["0", "false", "No", "off", ""])
def test_it_reads_false(monkeypatch, raw):
    monkeypatch.setenv(NAME, raw)

    assert env_bool(NAME, True) is False


def test_it_falls_back_to_the_default_when_unset():
    assert env_bool(NAME, True) is True
    assert env_int(NAME, 7) == 7
    assert env_str(NAME, "x") == "x"
    assert env_list(NAME, ["a"]) == ["a"]


def test_it_refuses_a_bool_it_cannot_read(monkeypatch):
    monkeypatch.setenv(NAME, "maybe")

    with pytest.raises(ImproperlyConfigured) as caught:
        env_bool(NAME, False)

    assert NAME in str(caught.value)
    assert "maybe" in str(caught.value)


def test_it_reads_an_int(monkeypatch):
    monkeypatch.setenv(NAME, "42")

    assert env_int(NAME, 0) == 42


def test_it_uses_the_default_for_an_empty_int(monkeypatch):
    monkeypatch.setenv(NAME, " ")

    assert env_int(NAME, 5) == 5


def test_it_refuses_an_int_it_cannot_read(monkeypatch):
    monkeypatch.setenv(NAME, "x")

    with pytest.raises(ImproperlyConfigured) as caught:
        env_int(NAME, 0)

    assert NAME in str(caught.value)
    assert "'x'" in str(caught.value)


def test_it_splits_a_list_and_drops_blanks(monkeypatch):
    monkeypatch.setenv(NAME, "a.example, b.example,, ")

    assert env_list(NAME, []) == ["a.example", "b.example"]
