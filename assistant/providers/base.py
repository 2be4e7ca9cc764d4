"""The provider extension point: a small base class, implementations chosen by AICD_PROVIDER."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import import_string

from assistant.prompt import ProviderRequest

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


def get_provider() -> BaseProvider:
    """The configured provider, built once per process from the validated settings.

    A provider checks its own configuration when it is built and reports a gap on every run as a
    diagnostic; an unknown AICD_PROVIDER is an ImproperlyConfigured naming the setting (and the
    system check ``provider.E001``).
    """
    name = settings.AICD_PROVIDER
    return _build_provider(name, PROVIDERS.get(name, ""))


def unknown_provider_message(name: object) -> str | None:
    """The readable error for an AICD_PROVIDER that names no provider, or None."""
    if name in PROVIDERS:
        return None
    return f"AICD_PROVIDER must be one of: {', '.join(PROVIDERS)}; got {name!r}."


@cache
def _build_provider(name: str, path: str) -> BaseProvider:
    problem = unknown_provider_message(name)
    if problem:
        raise ImproperlyConfigured(problem)
    instance: BaseProvider = import_string(path)()
    return instance


@receiver(setting_changed)
def _reset_provider(*, setting: str, **kwargs: Any) -> None:
    """Tests that override an AICD_PROVIDER* setting get a provider built from the new value."""
    if setting.startswith("AICD_PROVIDER"):
        _build_provider.cache_clear()
