"""Fixtures for the model-layer tests: chats with each offline personality."""

from __future__ import annotations

import pytest

from llm import ModelConfig, make_client
from tests.llm.offline_chat import GUARDED_TOOLS, Chat


@pytest.fixture
def careful() -> Chat:
    return Chat(make_client(ModelConfig(model="offline")), GUARDED_TOOLS)


@pytest.fixture
def compromised() -> Chat:
    return Chat(make_client(ModelConfig(model="offline-compromised")), GUARDED_TOOLS)
