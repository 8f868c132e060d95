"""Moved to tools/reveal.py: the harness's provenance reads third-party text the same
way, and the harness does not import the chat. Its importers follow once the edits
others have open in them land."""

from tools.reveal import normalise, reveal

__all__ = ["normalise", "reveal"]
