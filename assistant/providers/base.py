"""The provider extension point: a small base class, implementations chosen by AICD_PROVIDER."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from django.conf import settings
from django.utils.module_loading import import_string

from assistant.prompt import ProviderRequest

PROVIDERS = {
    "deterministic": "assistant.providers.deterministic.DeterministicProvider",
    "openai_compatible": "assistant.providers.openai_compatible.OpenAICompatibleProvider",
}


@dataclass(frozen=True)
class ProviderResponse:
    """Raw lane-formatted answer text; usage figures when the provider reports them."""

    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class ProviderError(Exception):
    """An expected provider failure with a sanitized, user-safe explanation (no secrets, no body)."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


class BaseProvider(ABC):
    """Turns a ProviderRequest into lane-formatted text. Called server-side only, after policy."""

    name: str = "base"

    @property
    @abstractmethod
    def model(self) -> str:
        """The model name reported in telemetry."""

    @abstractmethod
    def complete(self, request: ProviderRequest) -> ProviderResponse:
        """Answer the request or raise ProviderError."""


def get_provider() -> BaseProvider:
    """The configured provider instance (configuration is checked by the provider itself)."""
    cls = import_string(PROVIDERS[settings.AICD_PROVIDER])
    return cls()
