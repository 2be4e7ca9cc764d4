"""System checks for the configured provider and adapter.

An unknown provider or adapter name is an error naming the setting; provider configuration gaps
are warnings; clear-text keys are reported under --deploy.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register

from assistant.current.base import unknown_adapter_message
from assistant.providers.base import ProviderError, unknown_provider_message
from assistant.providers.gateway_config import load_config

LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}


@register()
def extension_names(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """AICD_PROVIDER and AICD_CURRENT_CONTEXT_ADAPTER must name a registered implementation."""
    errors: list[CheckMessage] = []
    problem = unknown_provider_message(settings.AICD_PROVIDER)
    if problem:
        errors.append(Error(problem, id="provider.E001"))
    problem = unknown_adapter_message(settings.AICD_CURRENT_CONTEXT_ADAPTER)
    if problem:
        errors.append(Error(problem, id="current.E001"))
    return errors


@register()
def provider_configuration(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The same checks a run makes before calling the provider, reported early.

    A warning, not an error: the app still starts and every run shows the same named diagnostic.
    """
    if settings.AICD_PROVIDER != "openai_compatible":
        return []
    try:
        load_config()
    except ProviderError as exc:
        return [
            Warning(
                exc.message,
                hint="Every question will end in a 'not_configured' diagnostic until this is fixed.",
                id="provider.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def provider_transport(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """In production, a key sent over plain http to another machine travels in clear text."""
    if settings.AICD_PROVIDER != "openai_compatible" or not settings.PRODUCTION:
        return []
    parts = urlsplit(settings.AICD_PROVIDER_BASE_URL or "")
    if (
        parts.scheme == "http"
        and settings.AICD_PROVIDER_API_KEY
        and parts.hostname not in LOOPBACK_HOSTS
    ):
        return [
            Warning(
                "AICD_PROVIDER_BASE_URL uses http:// to another host, so AICD_PROVIDER_API_KEY "
                "would cross the network unencrypted.",
                hint="Use an https:// gateway URL, or a loopback sidecar.",
                id="provider.W002",
            )
        ]
    return []
