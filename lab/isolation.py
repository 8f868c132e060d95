"""The lab's own database: a temporary SQLite file, never the configured one.

``isolated_database()`` points this thread's ``default`` connection at a fresh
file for the duration of a ``with`` block and puts the real connection back
afterwards. Everything in between — services, the harness, the trace, the
``connection`` proxy — uses the lab file, because it all goes through
``connections["default"]``. Connections are per thread, so requests served by
other threads keep the configured database.

Migrating costs most of a second, so each process migrates one template file
once and copies it for every isolated database after that.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import load_backend

_template_lock = threading.Lock()
_template: Path | None = None


def _lab_settings(name: Path) -> dict[str, Any]:
    settings = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(name),
        # A throwaway file: durability buys nothing, and an fsync per insert
        # would make the corpus ten times slower.
        "OPTIONS": {"init_command": "PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY;"},
    }
    return connections.configure_settings({DEFAULT_DB_ALIAS: settings})[DEFAULT_DB_ALIAS]


@contextmanager
def _connected(name: Path) -> Iterator[Any]:
    """This thread's default connection → the SQLite file ``name``."""
    settings = _lab_settings(name)
    lab = load_backend(settings["ENGINE"]).DatabaseWrapper(settings, DEFAULT_DB_ALIAS)
    previous = connections[DEFAULT_DB_ALIAS]
    connections[DEFAULT_DB_ALIAS] = lab
    try:
        yield lab
    finally:
        lab.close()
        connections[DEFAULT_DB_ALIAS] = previous


def migrated_template() -> Path:
    global _template
    with _template_lock:
        if _template is None or not _template.exists():
            path = Path(tempfile.mkdtemp(prefix="bankbot-lab-")) / "template.sqlite3"
            with _connected(path):
                call_command("migrate", verbosity=0, interactive=False, database=DEFAULT_DB_ALIAS)
            _template = path
            atexit.register(shutil.rmtree, path.parent, True)
        return _template


@contextmanager
def isolated_database() -> Iterator[Path]:
    """A fresh, migrated SQLite file as this thread's default database; removed afterwards."""
    template = migrated_template()
    folder = Path(tempfile.mkdtemp(prefix="bankbot-lab-"))
    path = folder / "lab.sqlite3"
    shutil.copyfile(template, path)
    try:
        with _connected(path):
            yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)
