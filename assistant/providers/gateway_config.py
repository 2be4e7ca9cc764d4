"""The OpenAI-compatible gateway's configuration: the AICD_PROVIDER_* settings, checked.

Every gap is a ProviderError(not_configured) with a readable message that never quotes the URL
or the key; the provider (once, when it is built) and the system check (providers/checks.py)
both call ``load_config``.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
from django.conf import settings

from assistant.providers.base import ProviderError

NOT_CONFIGURED = "not_configured"
_UNSAFE_URL_CHARS = re.compile(r"[\s\\\x00-\x1f\x7f]")


@dataclass(frozen=True)
class GatewayConfig:
    """The endpoint and call parameters, validated once per process from settings.

    ``verify`` is the SSL context httpx verifies the gateway's certificate with, built once:
    httpx's default CA bundle, or ``ca_bundle``.
    """

    endpoint: str
    model: str
    api_key: str = field(repr=False)
    timeout_s: float
    temperature: float
    max_tokens: int | None
    ca_bundle: str = ""
    verify: ssl.SSLContext | bool = field(default=True, repr=False, compare=False)


def chat_completions_url(base_url: str) -> str:
    """The Chat Completions endpoint for ``base_url``.

    The rule: trailing slashes are ignored; a base URL with no path gets ``/v1``; a path that
    already ends in ``/chat/completions`` is used as is; otherwise ``/chat/completions`` is
    appended to the path given. So ``http://host:8000``, ``http://host:8000/`` and
    ``http://host:8000/v1`` all mean ``http://host:8000/v1/chat/completions``, and a gateway
    path such as ``https://gw.example/llm/openai`` is kept as it is.
    Raises ProviderError(not_configured) for anything but a plain http(s) URL: no credentials,
    query, fragment, whitespace or backslash. The URL itself is never quoted in the error.
    """
    problem = (
        "AICD_PROVIDER_BASE_URL must be a plain http(s) URL (no credentials, query or fragment)."
    )
    if _UNSAFE_URL_CHARS.search(base_url):
        raise ProviderError(NOT_CONFIGURED, problem)
    try:
        parts = urlsplit(base_url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        raise ProviderError(NOT_CONFIGURED, problem) from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or "@" in parts.netloc
        or parts.query
        or parts.fragment
        or base_url.rstrip().endswith("?")
    ):
        raise ProviderError(NOT_CONFIGURED, problem)
    path = parts.path.rstrip("/")
    if not path:
        path = "/v1"
    if not path.endswith("/chat/completions"):
        path += "/chat/completions"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def load_config() -> GatewayConfig:
    """Read and check the AICD_PROVIDER_* settings; a gap is a named, readable ProviderError."""
    base_url = settings.AICD_PROVIDER_BASE_URL
    model = settings.AICD_PROVIDER_MODEL
    if not base_url:
        raise ProviderError(
            NOT_CONFIGURED,
            "AICD_PROVIDER_BASE_URL is not set; the openai_compatible provider needs the "
            "gateway's base URL.",
        )
    if not model:
        raise ProviderError(
            NOT_CONFIGURED,
            "AICD_PROVIDER_MODEL is not set; the openai_compatible provider needs a model name.",
        )
    api_key = settings.AICD_PROVIDER_API_KEY or ""
    if api_key and not re.fullmatch(r"[\x21-\x7e]+", api_key):
        raise ProviderError(
            NOT_CONFIGURED,
            "AICD_PROVIDER_API_KEY contains characters that cannot be sent in an HTTP header.",
        )
    temperature = settings.AICD_PROVIDER_TEMPERATURE or 0.0
    if not 0.0 <= temperature <= 2.0:
        raise ProviderError(NOT_CONFIGURED, "AICD_PROVIDER_TEMPERATURE must be between 0 and 2.")
    max_tokens = settings.AICD_PROVIDER_MAX_TOKENS or None
    ca_bundle = settings.AICD_PROVIDER_CA_BUNDLE or ""
    return GatewayConfig(
        endpoint=chat_completions_url(base_url),
        model=model,
        api_key=api_key,
        timeout_s=float(settings.AICD_PROVIDER_TIMEOUT_S),
        temperature=float(temperature),
        max_tokens=max_tokens,
        ca_bundle=ca_bundle,
        verify=_tls_verify(ca_bundle),
    )


def _tls_verify(ca_bundle: str) -> ssl.SSLContext:
    """Verification is always on: httpx's default CA bundle, or the configured private CA's PEM.

    The context is built here, once per process: left to httpx (``verify=True``), every call's
    client loads the CA bundle again, about 45 ms of CPU per answer (measured by make bench's
    slow-gateway run, where it held the workers' threads back from the gateway).
    """
    if not ca_bundle:
        return httpx.create_ssl_context(trust_env=False)
    problem = "AICD_PROVIDER_CA_BUNDLE does not name a readable PEM file."
    if not Path(ca_bundle).is_file():
        raise ProviderError(NOT_CONFIGURED, problem)
    try:
        return ssl.create_default_context(cafile=ca_bundle)
    except (OSError, ssl.SSLError):
        raise ProviderError(NOT_CONFIGURED, problem) from None
