"""The model layer: configuration, the one client factory, and the offline model."""

from __future__ import annotations

from .client import client_for, make_client
from .config import ModelConfig, ModelConfigError, Personality
from .offline import OfflineModel

__all__ = [
    "ModelConfig",
    "ModelConfigError",
    "OfflineModel",
    "Personality",
    "client_for",
    "make_client",
]
