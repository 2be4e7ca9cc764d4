"""The guarded fetch loop: one GET per hop, every URL re-checked, bounded in time, bytes and type.

Only `allowlisted_public_fetch` calls this, only with URLs from validated registry records. The
guards, in the order a request meets them:

- the URL (and every redirect target) is re-checked against the record's origin and path prefix;
- the host is resolved once, every answer must be a global unicast address, and the socket is
  opened to that vetted address (TLS still verifies the certificate for the host name), so names
  that resolve to private or loopback addresses, and DNS rebinding, fail closed;
- the request carries no cookies, credentials or proxy settings and asks for `identity` encoding;
  TLS trusts the public CA bundle only (never SSL_CERT_FILE/SSL_CERT_DIR);
- every socket read, write and TLS handshake is capped at what is left of one total deadline, so
  neither a trickled body nor trickled headers outlast it;
- the response must be 200 with an allowed content type, a web character set, no content coding,
  and fewer bytes than the limit; HTML with pathological elements is refused before parsing.

The connect-time guards are in transport.py, the body-to-text step in page_text.py.
"""

from __future__ import annotations

import ssl
import typing
from collections.abc import Iterable
from dataclasses import dataclass

import httpcore
import httpx

from assistant.current.errors import FetchError
from assistant.current.page_text import MAX_EXTRACTED_CHARS, extract_text
from assistant.current.transport import (
    PER_READ_TIMEOUT_S,
    PeerPolicy,
    Resolver,
    guarded_transport,
    system_resolver,
    transport_reason,
)
from core.addresses import is_public_address
from core.deadline import Deadline
from core.netguard import check_url_in_scope
from registry_review.records import SourceRecord

MAX_RESPONSE_BYTES = 1_000_000
MAX_REDIRECTS = 3
TOTAL_DEADLINE_S = 8.0
ALLOWED_MEDIA_TYPES = frozenset({"text/plain", "text/html", "text/markdown", "application/json"})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
USER_AGENT = "AICD-assistant current-context fetch/1 (server-side, allowlisted)"


@dataclass(frozen=True)
class FetchLimits:
    deadline_s: float = TOTAL_DEADLINE_S
    max_bytes: int = MAX_RESPONSE_BYTES
    max_redirects: int = MAX_REDIRECTS
    max_chars: int = MAX_EXTRACTED_CHARS


@dataclass(frozen=True)
class FetchedDocument:
    """The extracted text of one fetched source and where it finally came from."""

    url: str
    media_type: str
    text: str
    byte_count: int


class Fetcher:
    """Fetches one registry record's URL under every guard above; raises FetchError, nothing else."""

    def __init__(
        self,
        *,
        resolver: Resolver = system_resolver,
        peer_allowed: PeerPolicy = is_public_address,
        ssl_context: ssl.SSLContext | None = None,
        limits: FetchLimits | None = None,
        allowed_ports: frozenset[int] | None = None,
    ):
        self.resolver = resolver
        self.peer_allowed = peer_allowed
        self.ssl_context = ssl_context
        self.limits = limits or FetchLimits()
        self.allowed_ports = allowed_ports

    def fetch(self, record: SourceRecord) -> FetchedDocument:
        deadline = Deadline(self.limits.deadline_s)
        transport = self._transport(deadline)
        try:
            return self._fetch(record, transport, deadline)
        except FetchError:
            raise
        except httpx.TimeoutException:
            raise FetchError(
                f"the source did not answer within {self.limits.deadline_s:g} seconds"
            ) from None
        except httpx.TransportError as exc:
            raise FetchError(transport_reason(exc)) from None
        except (httpx.HTTPError, httpcore.ProtocolError, ssl.SSLError, OSError):
            raise FetchError("the connection to the source failed") from None
        finally:
            transport.close()

    # ------------------------------------------------------------------------ internals
    def _transport(self, deadline: Deadline) -> httpx.HTTPTransport:
        return guarded_transport(
            resolver=self.resolver,
            peer_allowed=self.peer_allowed,
            ssl_context=self.ssl_context,
            deadline=deadline,
        )

    def _in_scope(self, url: str, record: SourceRecord) -> str:
        checked, reason = check_url_in_scope(
            url,
            allowed_origin=record.allowed_origin,
            allowed_path_prefix=record.allowed_path_prefix,
            allowed_ports=self.allowed_ports,
        )
        if checked is None:
            raise FetchError(f"unsafe URL: {reason}")
        return checked

    def _fetch(
        self, record: SourceRecord, transport: httpx.HTTPTransport, deadline: Deadline
    ) -> FetchedDocument:
        url = self._in_scope(record.url, record)
        for hop in range(self.limits.max_redirects + 1):
            request = self._request(url, record, deadline)
            response = transport.handle_request(request)
            try:
                if response.status_code in REDIRECT_STATUSES:
                    location = response.headers.get("location")
                    if not location:
                        raise FetchError(
                            f"the source answered {response.status_code} without a Location"
                        )
                    if hop == self.limits.max_redirects:
                        raise FetchError(f"more than {self.limits.max_redirects} redirects")
                    try:
                        target = str(request.url.join(location))
                    except (httpx.InvalidURL, ValueError):
                        raise FetchError("the source redirected to a malformed URL") from None
                    url = self._in_scope(target, record)
                    continue
                if response.status_code != 200:
                    raise FetchError(f"the source answered HTTP {response.status_code}")
                media_type, charset = _content_type(response.headers.get("content-type", ""))
                encoding = response.headers.get("content-encoding", "identity").strip().lower()
                if encoding not in ("", "identity"):
                    raise FetchError(
                        f"the source sent {encoding!r}-encoded content although identity was requested"
                    )
                body = self._read(response, deadline)
            finally:
                response.close()
            text = extract_text(body, media_type, charset, max_chars=self.limits.max_chars)
            return FetchedDocument(url=url, media_type=media_type, text=text, byte_count=len(body))
        raise FetchError(f"more than {self.limits.max_redirects} redirects")  # pragma: no cover

    def _request(self, url: str, record: SourceRecord, deadline: Deadline) -> httpx.Request:
        budget = deadline.remaining()
        if budget <= 0:
            raise FetchError(f"the source did not answer within {self.limits.deadline_s:g} seconds")
        request = httpx.Request(
            "GET",
            url,
            headers={
                "Accept": "text/html, text/markdown;q=0.9, text/plain;q=0.9, application/json;q=0.8",
                "Accept-Encoding": "identity",
                "User-Agent": USER_AGENT,
            },
            extensions={
                "timeout": httpx.Timeout(budget, read=min(budget, PER_READ_TIMEOUT_S)).as_dict()
            },
        )
        # Check the URL exactly as httpx will send it, not only the string we built it from.
        if self._in_scope(str(request.url), record) != url or request.url.userinfo:
            raise FetchError("unsafe URL: the request URL differs from the checked URL")
        if "authorization" in request.headers or "cookie" in request.headers:
            raise FetchError("unsafe request: credentials would be sent")  # pragma: no cover
        return request

    def _read(self, response: httpx.Response, deadline: Deadline) -> bytes:
        declared = response.headers.get("content-length")
        if declared and declared.strip().isdigit() and int(declared) > self.limits.max_bytes:
            raise FetchError(f"the response is larger than {self.limits.max_bytes:,} bytes")
        stream = typing.cast(Iterable[bytes], response.stream)
        chunks: list[bytes] = []
        total = 0
        late = FetchError(f"the source did not finish within {self.limits.deadline_s:g} seconds")
        try:
            for chunk in stream:
                total += len(chunk)
                if total > self.limits.max_bytes:
                    raise FetchError(f"the response is larger than {self.limits.max_bytes:,} bytes")
                if deadline.expired():
                    raise late
                chunks.append(chunk)
        except httpx.TimeoutException:
            if total:  # some body arrived, then the budget ran out mid-trickle
                raise late from None
            raise
        return b"".join(chunks)


def _content_type(header: str) -> tuple[str, str | None]:
    media, _, params = header.partition(";")
    media = media.strip().lower()
    allowed = media in ALLOWED_MEDIA_TYPES or (
        media.startswith("application/") and media.endswith("+json")
    )
    if not allowed:
        raise FetchError(f"unsupported content type {media or '(none)'!r}")
    charset = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip('"').lower() or None
    return media, charset
