"""The OpenAI-compatible provider: one Chat Completions call to a configured gateway, server-side.

Works against any server that speaks ``POST .../chat/completions`` (an enterprise LLM gateway,
vLLM, Ollama, llama.cpp server, LiteLLM). Every failure becomes a ProviderError whose message is
safe to show a reviewer: at most an HTTP status and a short reason, never the API key, the
endpoint, a query string or any part of the response body.
"""

from __future__ import annotations

import email.utils
import http.cookiejar
import logging
import queue
import random
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx
from django.conf import settings

from assistant.domain import prompt
from assistant.domain.prompt import ProviderRequest
from assistant.providers.base import BaseProvider, ProviderError, ProviderResponse
from assistant.providers.completion import parse_completion
from assistant.providers.gateway_config import GatewayConfig, load_config

logger = logging.getLogger("assistant.providers.openai_compatible")

MAX_ATTEMPTS = 4
BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 8.0
MAX_RESPONSE_BYTES = 2 * 1024 * 1024
USER_AGENT = "aicd-assistant"
_jitter = random.SystemRandom()

# Codes a reviewer may see in a diagnostic; docs/providers.md says when each occurs.
TIMEOUT = "timeout"
CONNECTION_FAILED = "connection_failed"
TLS_FAILED = "tls_failed"
TRANSPORT_ERROR = "transport_error"
AUTH_FAILED = "auth_failed"
NOT_FOUND = "not_found"
BAD_REQUEST = "bad_request"
CLIENT_ERROR = "client_error"
REDIRECT_REFUSED = "redirect_refused"
RATE_LIMITED = "rate_limited"
SERVER_ERROR = "server_error"
RESPONSE_TOO_LARGE = "response_too_large"
UNEXPECTED = "provider_failed"


@dataclass(frozen=True)
class _Failed:
    """One failed attempt: the error to report, whether to retry, the server's Retry-After."""

    error: ProviderError
    retryable: bool
    retry_after_s: float | None = None


def request_body(config: GatewayConfig, request: ProviderRequest) -> dict[str, Any]:
    """The Chat Completions JSON: system instructions, then the question and source groups."""
    body: dict[str, Any] = {
        "model": config.model,
        "messages": [
            {"role": "system", "content": request.system_instructions},
            {"role": "user", "content": prompt.user_message(request)},
        ],
        "temperature": config.temperature,
        "stream": False,
    }
    if config.max_tokens:
        body["max_tokens"] = config.max_tokens
    return body


class OpenAICompatibleProvider(BaseProvider):
    """Calls a configured OpenAI-compatible Chat Completions endpoint within one overall deadline.

    Retries, with exponential backoff and jitter, only after a connection error, a 429 or a 5xx,
    and never past the deadline (``AICD_PROVIDER_TIMEOUT_S`` covers every attempt and wait).
    """

    name = "openai_compatible"
    max_attempts = MAX_ATTEMPTS
    backoff_base_s = BACKOFF_BASE_S

    def __init__(self) -> None:
        # The settings are read and checked once, when the provider is built (once per process,
        # see base.get_provider); a gap is kept and reported as the same diagnostic on every run.
        self._config: GatewayConfig | ProviderError
        try:
            self._config = load_config()
        except ProviderError as exc:
            self._config = exc

    @property
    def model(self) -> str:
        return str(settings.AICD_PROVIDER_MODEL or "unconfigured")

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        config = self._config
        if isinstance(config, ProviderError):
            raise ProviderError(config.code, config.message)
        body = request_body(config, request)
        deadline = time.monotonic() + config.timeout_s
        # The exchange runs in a worker so that the deadline holds even against a server that
        # trickles bytes (httpx timeouts are per read): the caller stops waiting at the deadline.
        outcome: queue.Queue[ProviderResponse | ProviderError] = queue.Queue(maxsize=1)
        cancel = threading.Event()
        worker = threading.Thread(
            target=self._run,
            args=(config, body, deadline, cancel, outcome),
            name="aicd-provider-call",
            daemon=True,
        )
        worker.start()
        try:
            result = outcome.get(timeout=max(0.0, deadline - time.monotonic()) + 0.05)
        except queue.Empty:
            cancel.set()
            result = _timeout_error(config)
        if isinstance(result, ProviderError):
            logger.warning("provider call failed: code=%s", result.code)
            raise result
        return result

    def _run(
        self,
        config: GatewayConfig,
        body: dict[str, Any],
        deadline: float,
        cancel: threading.Event,
        outcome: queue.Queue[ProviderResponse | ProviderError],
    ) -> None:
        result: ProviderResponse | ProviderError
        try:
            result = self._exchange(config, body, deadline, cancel)
        except ProviderError as exc:
            result = exc
        except Exception as exc:  # noqa: BLE001 - the worker must always report back, whatever went wrong
            logger.error("provider call failed unexpectedly: %s", type(exc).__name__)
            result = ProviderError(UNEXPECTED, "The provider call failed unexpectedly.")
        outcome.put(result)

    def _exchange(
        self, config: GatewayConfig, body: dict[str, Any], deadline: float, cancel: threading.Event
    ) -> ProviderResponse:
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": "identity",
            "User-Agent": USER_AGENT,
        }
        if config.api_key:
            headers["Authorization"] = f"Bearer {config.api_key}"
        with httpx.Client(
            verify=config.verify,
            trust_env=False,
            follow_redirects=False,
            cookies=_refuse_all_cookies(),
            headers=headers,
        ) as client:
            attempt = 0
            while True:
                attempt += 1
                remaining = deadline - time.monotonic()
                if remaining <= 0 or cancel.is_set():
                    raise _timeout_error(config)
                outcome = self._attempt(client, config, body, deadline, cancel)
                if isinstance(outcome, ProviderResponse):
                    return outcome
                if not outcome.retryable or attempt >= self.max_attempts:
                    raise _after_attempts(outcome.error, attempt)
                delay = self._backoff(attempt, outcome.retry_after_s)
                if time.monotonic() + delay >= deadline:
                    raise _after_attempts(outcome.error, attempt)
                logger.info(
                    "provider attempt %d failed (%s); retrying", attempt, outcome.error.code
                )
                if cancel.wait(delay):
                    raise _timeout_error(config)

    def _attempt(
        self,
        client: httpx.Client,
        config: GatewayConfig,
        body: dict[str, Any],
        deadline: float,
        cancel: threading.Event,
    ) -> ProviderResponse | _Failed:
        """One POST within what is left of the deadline: the parsed answer, or why it failed."""
        remaining = max(0.001, deadline - time.monotonic())
        try:
            with client.stream(
                "POST", config.endpoint, json=body, timeout=httpx.Timeout(remaining)
            ) as response:
                status = response.status_code
                if status == 429 or status >= 500:
                    retry_after = _retry_after(response.headers.get("Retry-After"))
                    return _Failed(_status_error(status), retryable=True, retry_after_s=retry_after)
                if not 200 <= status < 300:
                    return _Failed(_status_error(status), retryable=False)
                raw = _read_bounded(response, deadline, cancel, config)
        except httpx.TimeoutException:
            return _Failed(_timeout_error(config), retryable=False)
        except httpx.ConnectError as exc:
            if _caused_by(exc, ssl.SSLError):
                error = ProviderError(
                    TLS_FAILED,
                    "The provider's TLS certificate could not be verified; for a private CA "
                    "set AICD_PROVIDER_CA_BUNDLE.",
                )
                return _Failed(error, retryable=False)
            return _Failed(_connection_error(), retryable=True)
        except httpx.RemoteProtocolError:
            return _Failed(_connection_error(), retryable=True)
        except httpx.HTTPError as exc:
            logger.warning("provider transport error: %s", type(exc).__name__)
            error = ProviderError(
                TRANSPORT_ERROR, "The request to the provider failed in transport."
            )
            return _Failed(error, retryable=False)
        return parse_completion(raw, configured_model=config.model)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        ceiling = min(BACKOFF_CAP_S, self.backoff_base_s * 2 ** (attempt - 1))
        delay = ceiling / 2 + _jitter.uniform(0, ceiling / 2)
        return max(delay, retry_after) if retry_after is not None else delay


def _read_bounded(
    response: httpx.Response, deadline: float, cancel: threading.Event, config: GatewayConfig
) -> bytes:
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > MAX_RESPONSE_BYTES:
        raise _too_large()
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_RESPONSE_BYTES:
            raise _too_large()
        if time.monotonic() > deadline or cancel.is_set():
            raise _timeout_error(config)
        chunks.append(chunk)
    return b"".join(chunks)


def _caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _connection_error() -> ProviderError:
    return ProviderError(
        CONNECTION_FAILED,
        "Could not connect to the provider endpoint, or it dropped the connection.",
    )


def _too_large() -> ProviderError:
    return ProviderError(
        RESPONSE_TOO_LARGE, f"The provider's reply exceeded {MAX_RESPONSE_BYTES // 1024} KiB."
    )


def _timeout_error(config: GatewayConfig) -> ProviderError:
    return ProviderError(
        TIMEOUT,
        f"The provider did not answer within the {config.timeout_s:g}-second deadline "
        "(AICD_PROVIDER_TIMEOUT_S).",
    )


def _status_error(status: int) -> ProviderError:
    if status in (401, 403):
        return ProviderError(
            AUTH_FAILED,
            f"The provider refused the credentials (HTTP {status}); check AICD_PROVIDER_API_KEY.",
        )
    if status == 404:
        return ProviderError(
            NOT_FOUND,
            "The provider has no such model or path (HTTP 404); check AICD_PROVIDER_BASE_URL "
            "and AICD_PROVIDER_MODEL.",
        )
    if status in (400, 422):
        return ProviderError(BAD_REQUEST, f"The provider rejected the request (HTTP {status}).")
    if status == 429:
        return ProviderError(RATE_LIMITED, "The provider is rate limiting requests (HTTP 429).")
    if status >= 500:
        return ProviderError(SERVER_ERROR, f"The provider failed (HTTP {status}).")
    if 300 <= status < 400:
        return ProviderError(
            REDIRECT_REFUSED,
            f"The provider endpoint redirected (HTTP {status}); redirects are not followed, "
            "so configure the final URL.",
        )
    return ProviderError(CLIENT_ERROR, f"The provider rejected the request (HTTP {status}).")


def _after_attempts(error: ProviderError, attempts: int) -> ProviderError:
    if attempts == 1 or error.code == TIMEOUT:
        return error
    return ProviderError(
        error.code, f"{error.message.rstrip('.')}; gave up after {attempts} attempts."
    )


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP date); None when absent or bad."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(min(int(value), 24 * 3600))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _refuse_all_cookies() -> http.cookiejar.CookieJar:
    """A cookie jar that keeps nothing, so no cookie is ever sent to the provider."""
    return http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
