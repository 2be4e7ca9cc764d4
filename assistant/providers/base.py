"""The provider extension point: a small base class, implementations chosen by AICD_PROVIDER."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from assistant.domain.prompt import ProviderRequest
from core.implementations import Implementations

#: AICD_PROVIDER name -> import string: the one list of providers (the system check reads it).
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


_PROVIDERS: Implementations[BaseProvider] = Implementations(
    "AICD_PROVIDER", PROVIDERS, reset_prefix="AICD_PROVIDER"
)


def get_provider() -> BaseProvider:
    """The configured provider, built once per process from the validated settings.

    A provider checks its own configuration when it is built and reports a gap on every run as a
    diagnostic; an unknown AICD_PROVIDER is an ImproperlyConfigured naming the setting (and the
    system check ``provider.E001``). A changed AICD_PROVIDER* setting builds it anew.
    """
    return _PROVIDERS.current()


#: The readable error for an AICD_PROVIDER that names no provider, or None.
unknown_provider_message = _PROVIDERS.unknown_message
