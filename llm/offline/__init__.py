"""The offline model: a deterministic stand-in for an LLM, served through the real
openai SDK (llm/client.py plugs it in as a transport). It sits behind the seam, not in the
chat it answers; the Injection Lab and the tests use its compromised personality."""

from __future__ import annotations

from llm.offline.offline import OfflineModel

__all__ = ["OfflineModel"]
