"""The one seam between BankBot and a language model.

Every openai client in the project comes from here, so switching between the
offline model and a real endpoint is a matter of configuration, and tests can
be sure nothing else opens a connection to a model.
"""

from __future__ import annotations

import functools

import httpx2
import openai

from llm.offline import OfflineModel

from .config import UNUSED_API_KEY, ModelConfig, ModelConfigError

# ".invalid" is reserved (RFC 2606): if the mock transport were ever bypassed,
# the request would fail to resolve instead of reaching someone's server.
OFFLINE_BASE_URL = "http://offline.invalid/v1"
OFFLINE_API_KEY = "offline"
OPENAI_BASE_URL = "https://api.openai.com/v1"


def make_client(config: ModelConfig) -> openai.OpenAI:
    """A synchronous openai client for ``config``: offline in-process, or a real endpoint."""
    if config.is_offline:
        transport = httpx2.MockTransport(OfflineModel(config.personality))
        return openai.OpenAI(
            api_key=OFFLINE_API_KEY,
            base_url=OFFLINE_BASE_URL,
            http_client=httpx2.Client(transport=transport),
            timeout=config.timeout,
            max_retries=config.max_retries,
        )
    base_url, api_key = _endpoint(config)
    return openai.OpenAI(
        api_key=api_key, base_url=base_url, timeout=config.timeout, max_retries=config.max_retries
    )


def client_for(config: ModelConfig) -> openai.OpenAI:
    """The client a turn uses. A real endpoint's client is shared by every turn of
    the process (the SDK client is thread-safe), so its connections stay open and a
    turn does not pay a new TCP and TLS handshake; the offline model's is made
    fresh, which costs nothing."""
    return make_client(config) if config.is_offline else _shared_client(config)


@functools.lru_cache(maxsize=4)  # one per configuration; settings give one
def _shared_client(config: ModelConfig) -> openai.OpenAI:
    return make_client(config)


def _endpoint(config: ModelConfig) -> tuple[str, str]:
    """Base URL and key, always explicit: left unset, the SDK would quietly read
    OPENAI_* from the process environment and bypass ModelConfig."""
    if config.api_key is None and config.base_url is None:
        raise ModelConfigError(
            f"Model {config.model!r} needs OPENAI_API_KEY or OPENAI_BASE_URL (or use BANKBOT_MODEL=offline)."
        )
    return config.base_url or OPENAI_BASE_URL, config.api_key or UNUSED_API_KEY
