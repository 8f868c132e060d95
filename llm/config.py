"""Which model BankBot talks to, read once from the environment.

Kept free of Django so the model layer (and its tests) can run on its own;
settings.py is expected to call ``ModelConfig.from_env(os.environ)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

Personality = Literal["careful", "compromised"]

# The offline model's names map to its personalities. Anything else is taken to
# be a real model name understood by an OpenAI-compatible endpoint.
OFFLINE_MODELS: dict[str, Personality] = {
    "offline": "careful",
    "offline-compromised": "compromised",
}

# Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the SDK insists on one.
UNUSED_API_KEY = "unused"

DEFAULT_TIMEOUT = 30.0  # seconds for one HTTP attempt, not the whole turn
DEFAULT_MAX_RETRIES = 2


class ModelConfigError(ValueError):
    """The model settings cannot work; the message says which variable to fix.

    A ValueError rather than Django's ImproperlyConfigured so this module stays
    importable without Django; settings.py may re-raise it as either.
    """


@dataclass(frozen=True)
class ModelConfig:
    model: str = "offline"
    # repr=False: a config gets logged and shown in tracebacks; the key must not be.
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    personality: Personality = "careful"

    def __post_init__(self) -> None:
        if not self.model:
            raise ModelConfigError("BANKBOT_MODEL must not be empty; use 'offline' for the demo.")
        if self.model.startswith("offline") and self.model not in OFFLINE_MODELS:
            known = ", ".join(sorted(OFFLINE_MODELS))
            raise ModelConfigError(
                f"BANKBOT_MODEL={self.model!r} is not an offline model; use one of: {known}."
            )
        if self.personality not in get_args(Personality):
            raise ModelConfigError(
                f"personality must be 'careful' or 'compromised'; got {self.personality!r}."
            )
        if not self.timeout > 0:
            raise ModelConfigError(
                f"BANKBOT_MODEL_TIMEOUT must be a positive number of seconds; got {self.timeout!r}."
            )
        if self.max_retries < 0:
            raise ModelConfigError(f"BANKBOT_MODEL_RETRIES must be 0 or more; got {self.max_retries!r}.")
        # The model name is the one switch operators flip, so it wins over the
        # default personality: ModelConfig(model="offline-compromised") is compromised.
        if self.model == "offline-compromised":
            object.__setattr__(self, "personality", "compromised")

    @property
    def is_offline(self) -> bool:
        return self.model in OFFLINE_MODELS

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> ModelConfig:
        """Read BANKBOT_MODEL, OPENAI_API_KEY, OPENAI_BASE_URL, BANKBOT_MODEL_TIMEOUT
        and BANKBOT_MODEL_RETRIES. Empty values count as unset."""
        model = _read(environ, "BANKBOT_MODEL") or "offline"
        api_key = _read(environ, "OPENAI_API_KEY")
        base_url = _read(environ, "OPENAI_BASE_URL")
        timeout = _read_float(environ, "BANKBOT_MODEL_TIMEOUT", DEFAULT_TIMEOUT)
        max_retries = _read_int(environ, "BANKBOT_MODEL_RETRIES", DEFAULT_MAX_RETRIES)

        if model in OFFLINE_MODELS:
            # The offline model never leaves the process, so keys and URLs meant
            # for a real endpoint are ignored rather than half-used.
            return cls(
                model=model,
                timeout=timeout,
                max_retries=max_retries,
                personality=OFFLINE_MODELS[model],
            )
        if api_key is None and base_url is None:
            raise ModelConfigError(
                f"BANKBOT_MODEL={model!r} is a real model, so set OPENAI_API_KEY "
                "(for api.openai.com) or OPENAI_BASE_URL (for an OpenAI-compatible "
                "server such as Ollama or vLLM), or set BANKBOT_MODEL=offline."
            )
        return cls(
            model=model,
            api_key=api_key if api_key is not None else UNUSED_API_KEY,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
        )


def _read(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name, "").strip()
    return value or None


def _read_float(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = _read(environ, name)
    if raw is None:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ModelConfigError(f"{name} must be a number of seconds; got {raw!r}.") from None


def _read_int(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = _read(environ, name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ModelConfigError(f"{name} must be a whole number; got {raw!r}.") from None
