"""The Russian catalogue compiled for any run (plain pytest and ``python -m tests.recall``
too, not only bin/setup): every .po whose .mo is missing or older is compiled with
polib, no gettext needed."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def compile_translations() -> None:
    import polib

    for po in [*ROOT.glob("*/locale/*/LC_MESSAGES/*.po"), *ROOT.glob("locale/*/LC_MESSAGES/*.po")]:
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            polib.pofile(str(po)).save_as_mofile(str(mo))
