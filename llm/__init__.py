"""The one seam to a language model: its configuration and the client factory
(the offline model it can plug in lives beside it, in llm/offline/)."""

from __future__ import annotations

from .client import client_for, make_client
from .config import ModelConfig, ModelConfigError, Personality

__all__ = [
    "ModelConfig",
    "ModelConfigError",
    "Personality",
    "client_for",
    "make_client",
]
