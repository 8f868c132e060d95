"""The default database is a SQLite file tuned so simultaneous clicks wait rather than
fail with "database is locked"."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection


def test_it_defaults_to_sqlite_with_immediate_transactions_and_a_timeout(load_settings):
    settings = load_settings(DATABASE_URL=None)

    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] >= 5
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]


def test_sqlite_keeps_each_threads_connection_open_unless_told_otherwise(load_settings):
    """Opening a SQLite connection for every database step cost a chat turn more than
    its queries (docs/benchmarks.md, part g); DB_CONN_MAX_AGE still decides if set."""
    assert load_settings(DATABASE_URL=None, DB_CONN_MAX_AGE=None).DATABASES["default"]["CONN_MAX_AGE"] is None
    assert load_settings(DATABASE_URL=None, DB_CONN_MAX_AGE="0").DATABASES["default"]["CONN_MAX_AGE"] == 0


def test_it_leaves_sqlite_options_off_other_engines(load_settings):
    settings = load_settings(DATABASE_URL="postgres://bankbot:secret@127.0.0.1:5432/bankbot")

    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert "transaction_mode" not in database.get("OPTIONS", {})


@pytest.fixture
def sqlite_connection(db):
    if connection.vendor != "sqlite":
        pytest.skip("only the default SQLite database is tuned this way")
    return connection


def test_it_runs_the_connection_in_wal_mode(sqlite_connection):
    with sqlite_connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


def test_it_waits_for_a_busy_database_instead_of_failing(sqlite_connection):
    with sqlite_connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        busy_ms = cursor.fetchone()[0]

    assert busy_ms == sqlite_connection.settings_dict["OPTIONS"]["timeout"] * 1000
    assert busy_ms >= 5000


def test_it_opens_transactions_immediately(sqlite_connection):
    assert sqlite_connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


PG_URL = "postgres://bankbot:secret@127.0.0.1:5432/bankbot"


def test_it_pools_postgresql_connections_per_worker_by_default(load_settings):
    database = load_settings(
        DATABASE_URL=PG_URL, DB_POOL_MAX_SIZE=None, DB_POOL_TIMEOUT=None, DB_CONN_MAX_AGE=None
    ).DATABASES["default"]

    assert database["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 5}
    assert database["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections


def test_it_sizes_or_turns_off_the_pool_from_the_environment(load_settings):
    sized = load_settings(DATABASE_URL=PG_URL, DB_POOL_MAX_SIZE="4", DB_POOL_TIMEOUT="2")
    assert sized.DATABASES["default"]["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 4, "timeout": 2}
    off = load_settings(DATABASE_URL=PG_URL, DB_POOL_MAX_SIZE="0", DB_CONN_MAX_AGE="60")
    assert "pool" not in off.DATABASES["default"]["OPTIONS"]
    assert off.DATABASES["default"]["CONN_MAX_AGE"] == 60


def test_it_refuses_a_pool_and_persistent_connections_together_with_a_clear_error(load_settings):
    with pytest.raises(ImproperlyConfigured, match="choose one"):
        load_settings(DATABASE_URL=PG_URL, DB_CONN_MAX_AGE="60")
