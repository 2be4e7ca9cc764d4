"""The guarded fetch: one GET per hop, peer address vetted at connect time, bounded in time, bytes and type.

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
"""

from __future__ import annotations

import codecs
import concurrent.futures
import ipaddress
import json
import re
import socket
import ssl
import time
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import httpcore
import httpx
from lxml import etree
from lxml import html as lxml_html

from core.netguard import check_url_in_scope, is_public_address
from registry_review.records import SourceRecord

MAX_RESPONSE_BYTES = 1_000_000
MAX_EXTRACTED_CHARS = 60_000
MIN_TEXT_CHARS = 40
MAX_REDIRECTS = 3
TOTAL_DEADLINE_S = 8.0
# A single stalled read can outlast the total deadline by at most this much.
PER_READ_TIMEOUT_S = 2.0
MAX_JSON_DEPTH = 32
ALLOWED_MEDIA_TYPES = frozenset({"text/plain", "text/html", "text/markdown", "application/json"})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Python codec names of the web's character sets. Other codecs are transforms (rot13, zlib), escape
# decoders that yield lone surrogates, or quadratic (punycode: minutes for one megabyte).
WEB_CHARSETS = frozenset(
    "utf-8 utf-8-sig utf-16 utf-16-le utf-16-be ascii iso8859-1 iso8859-2 iso8859-3 iso8859-4 "
    "iso8859-5 iso8859-6 iso8859-7 iso8859-8 iso8859-10 iso8859-13 iso8859-14 iso8859-15 iso8859-16 "
    "cp1250 cp1251 cp1252 cp1253 cp1254 cp1255 cp1256 cp1257 cp1258 cp874 cp866 koi8-r koi8-u "
    "mac-roman mac-cyrillic shift_jis cp932 euc_jp iso2022_jp gb2312 gbk gb18030 big5 big5hkscs "
    "euc_kr tis-620".split()
)
# libxml2 compares an element's attribute names pairwise: 80,000 attributes (700 KB) cost 20 s of
# CPU. No real page comes near this many on one element.
MAX_ELEMENT_ATTRIBUTES = 400
_START_TAG_RE = re.compile(r"""<[A-Za-z][^\s/>]*((?:[^>"'=]+|=\s*"[^"]*"|=\s*'[^']*'|=[^\s>]*|["'])*)""")
_ATTRIBUTE_VALUE_RE = re.compile(r"""=\s*(?:"[^"]*"|'[^']*'|[^\s>]*)""")
_ATTRIBUTE_NAME_RE = re.compile(r"[^\s/]+")
USER_AGENT = "AICD-assistant current-context fetch/1 (server-side, allowlisted)"
_DROP_TAGS = ("script", "style", "noscript", "template", "svg", "iframe", "object", "embed",
              "head", "nav", "header", "footer", "aside", "form", "button", "select")
_BLOCK_TAGS = frozenset(
    "address article blockquote br dd div dl dt figcaption figure h1 h2 h3 h4 h5 h6 hr li main ol "
    "p pre section table td th tr ul".split()
)

Resolver = Callable[[str, int], list[str]]
PeerPolicy = Callable[[ipaddress.IPv4Address | ipaddress.IPv6Address], bool]
_RESOLVER_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="aicd-resolve")


class FetchError(Exception):
    """A fetch that failed closed; ``reason`` is a plain sentence safe to show to a reviewer."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class PeerRefused(httpcore.ConnectError):
    """Raised inside the network backend when a host cannot be resolved to a vetted address."""


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


class Deadline:
    """One total time budget shared by resolving, connecting, TLS, redirects and reading."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        return max(0.0, self._end - time.monotonic())

    def expired(self) -> bool:
        return self.remaining() <= 0.0


def system_resolver(host: str, port: int) -> list[str]:
    """The operating system's resolver: every address for ``host`` (TCP)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read, write and TLS handshake gets at most what is left of the deadline.

    httpcore applies the request's timeouts per operation, so a server that trickles bytes (body
    or headers, or endless `100 Continue` heads) never trips them; this cap does.
    """

    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline):
        self._stream = stream
        self._deadline = deadline

    def _budget(self, timeout: float | None, expired: type[Exception]) -> float:
        left = self._deadline.remaining()
        if left <= 0:
            raise expired("the total time budget ran out")
        return left if timeout is None else min(timeout, left)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, self._budget(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, self._budget(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        budget = self._budget(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, budget), self._deadline)

    def get_extra_info(self, info: str) -> typing.Any:
        return self._stream.get_extra_info(info)


class GuardedNetworkBackend(httpcore.SyncBackend):
    """Resolves once, refuses unless every answer is allowed, then connects to a vetted address.

    httpcore still passes the original host name to TLS, so SNI and certificate verification are
    for the name in the URL; only the TCP connect uses the vetted address.
    """

    def __init__(self, *, resolver: Resolver, peer_allowed: PeerPolicy, deadline: Deadline):
        self.resolver = resolver
        self.peer_allowed = peer_allowed
        self.deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        vetted = self._vetted_addresses(host, port)
        last: Exception | None = None
        for address in vetted:
            budget = self.deadline.remaining()
            if budget <= 0:
                break
            try:
                stream = super().connect_tcp(
                    str(address),
                    port,
                    timeout=min(timeout, budget) if timeout else budget,
                    local_address=local_address,
                    socket_options=socket_options,
                )
                return DeadlineStream(stream, self.deadline)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        if last is not None:
            raise last
        raise httpcore.ConnectTimeout("the time budget ran out before connecting")

    def connect_unix_socket(self, *args: object, **kwargs: object) -> httpcore.NetworkStream:
        raise PeerRefused("unix sockets are never used for current/public sources")

    def _vetted_addresses(self, host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        future = _RESOLVER_POOL.submit(self.resolver, host, port)
        try:
            answers = future.result(timeout=self.deadline.remaining())
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise PeerRefused(f"resolving {host} took longer than the time budget") from None
        except (OSError, UnicodeError, ValueError):
            raise PeerRefused(f"could not resolve {host}") from None
        addresses = []
        for answer in answers:
            try:
                addresses.append(ipaddress.ip_address(answer.split("%", 1)[0]))
            except ValueError:
                raise PeerRefused(f"{host} resolved to something that is not an IP address") from None
        if not addresses:
            raise PeerRefused(f"could not resolve {host}")
        refused = [a for a in addresses if not self.peer_allowed(a)]
        if refused:
            raise PeerRefused(
                f"{host} resolves to a private, loopback, link-local or otherwise non-public address; "
                "refused before connecting"
            )
        return list(dict.fromkeys(addresses))


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
            raise FetchError(f"the source did not answer within {self.limits.deadline_s:g} seconds") from None
        except httpx.TransportError as exc:
            raise FetchError(_transport_reason(exc)) from None
        except (httpx.HTTPError, httpcore.ProtocolError, ssl.SSLError, OSError):
            raise FetchError("the connection to the source failed") from None
        finally:
            transport.close()

    # ------------------------------------------------------------------------ internals
    def _transport(self, deadline: Deadline) -> httpx.HTTPTransport:
        context = self.ssl_context or httpx.create_ssl_context(trust_env=False)
        transport = httpx.HTTPTransport(verify=context, trust_env=False, retries=0)
        # httpx has no public hook for the network backend; replace its pool with one that uses
        # the guarded backend (same arguments httpx would pass, one connection, no keep-alive).
        transport._pool.close()
        transport._pool = httpcore.ConnectionPool(
            ssl_context=context,
            max_connections=1,
            max_keepalive_connections=0,
            http1=True,
            http2=False,
            retries=0,
            network_backend=GuardedNetworkBackend(
                resolver=self.resolver, peer_allowed=self.peer_allowed, deadline=deadline
            ),
        )
        return transport

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

    def _fetch(self, record: SourceRecord, transport: httpx.HTTPTransport, deadline: Deadline) -> FetchedDocument:
        url = self._in_scope(record.url, record)
        for hop in range(self.limits.max_redirects + 1):
            request = self._request(url, record, deadline)
            response = transport.handle_request(request)
            try:
                if response.status_code in REDIRECT_STATUSES:
                    location = response.headers.get("location")
                    if not location:
                        raise FetchError(f"the source answered {response.status_code} without a Location")
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
                    raise FetchError(f"the source sent {encoding!r}-encoded content although identity was requested")
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


def _transport_reason(exc: Exception) -> str:
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, PeerRefused):
        return str(cause)
    if isinstance(cause, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(exc):
        return "the source's TLS certificate could not be verified"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the source sent a malformed or oversized HTTP response"
    return "could not connect to the source"


def _content_type(header: str) -> tuple[str, str | None]:
    media, _, params = header.partition(";")
    media = media.strip().lower()
    allowed = media in ALLOWED_MEDIA_TYPES or (media.startswith("application/") and media.endswith("+json"))
    if not allowed:
        raise FetchError(f"unsupported content type {media or '(none)'!r}")
    charset = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip('"').lower() or None
    return media, charset


def _decode(body: bytes, charset: str | None) -> str:
    if b"\x00" in body:
        raise FetchError("the response is binary, not text")
    name = "utf-8"
    if charset:
        try:
            name = codecs.lookup(charset).name
        except (LookupError, ValueError):
            raise FetchError(f"unknown character set {charset[:40]!r}") from None
        if name not in WEB_CHARSETS:
            raise FetchError(f"unsupported character set {charset[:40]!r}")
    text = body.decode(name, errors="replace")
    if text and text.count("\ufffd") > max(8, len(text) // 50):
        raise FetchError("the response is not readable text in its declared character set")
    return text


def extract_text(body: bytes, media_type: str, charset: str | None, *, max_chars: int = MAX_EXTRACTED_CHARS) -> str:
    """Readable text from an allowed response body, bounded; FetchError when there is none."""
    text = _decode(body, charset)
    if media_type == "text/html":
        text = _html_text(text)
    elif media_type == "application/json" or media_type.endswith("+json"):
        text = _json_text(text, max_chars)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    cleaned = "\n".join(line for line in lines if line)[:max_chars]
    if len(cleaned) < MIN_TEXT_CHARS:
        raise FetchError("the response has no readable text")
    return cleaned


def _html_text(markup: str) -> str:
    """Visible text of the page's main content, via libxml2's HTML parser (lxml).

    libxml2 is fast on large flat pages and stops at its nesting limit, so a hostile page costs
    bounded time; text it cannot reach simply is not extracted (and a page with none fails). Its one
    quadratic path, attribute-heavy elements, is refused first.
    """
    if _too_many_attributes(markup):
        raise FetchError(f"the HTML has an element with too many attributes (over {MAX_ELEMENT_ATTRIBUTES})")
    try:
        parser = lxml_html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
        doc = lxml_html.document_fromstring(markup.encode("utf-8"), parser=parser)
    except (etree.ParserError, ValueError):
        raise FetchError("the HTML could not be parsed") from None
    etree.strip_elements(doc, *_DROP_TAGS, with_tail=False)
    roots = doc.xpath("//main") or doc.xpath("//article") or doc.xpath("//body") or [doc]
    root = roots[0]
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.lower() in _BLOCK_TAGS:
            element.tail = "\n" + (element.tail or "")
    return str(root.text_content())


def _too_many_attributes(markup: str) -> bool:
    """Whether any start tag has more than MAX_ELEMENT_ATTRIBUTES attribute names; one linear pass.

    Tags are read as the HTML tokenizer reads them: quotes matter only after '=', names are split
    by whitespace or '/', so quoted values (SVG paths, data: URIs) never count. Text that only
    looks like a tag (in comments or scripts) is counted too: over-counting fails closed.
    """
    for match in _START_TAG_RE.finditer(markup):
        if len(match.group(1)) <= 2 * MAX_ELEMENT_ATTRIBUTES:  # each name needs a character and a separator
            continue
        names = _ATTRIBUTE_VALUE_RE.sub(" ", match.group(1))
        for count, _ in enumerate(_ATTRIBUTE_NAME_RE.finditer(names), 1):
            if count > MAX_ELEMENT_ATTRIBUTES:
                return True
    return False


def _json_text(raw: str, max_chars: int) -> str:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise FetchError("the JSON response is malformed") from None
    out: list[str] = []
    size = 0
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack and size < max_chars:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise FetchError("the JSON response is nested too deeply")
        if isinstance(node, str):
            out.append(node)
            size += len(node)
        elif isinstance(node, dict):
            stack.extend((v, depth + 1) for v in reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in reversed(node))
    return "\n".join(out)
