"""URL and address safety: which hosts, paths and peer addresses a public fetch may use.

Pure string and number work: no network, no DNS. Registry validation (registry_review) decides
with it what a record may name; the fetcher (assistant.current) re-checks every redirect target
with ``check_url_in_scope`` and every connected peer with ``is_public_address``.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

MAX_URL_CHARS = 2048
DEFAULT_PORT = 443

# Hosts that name this machine or a private network by convention (RFC 6761, RFC 6762, common
# enterprise suffixes). Always rejected, in every environment.
INTERNAL_SUFFIXES = (
    "localhost",
    "localdomain",
    "local",
    "internal",
    "intranet",
    "corp",
    "lan",
    "home",
    "home.arpa",
    "private",
    "arpa",
    "onion",
    "alt",
)
# Names reserved for documentation and tests (RFC 2606, RFC 6761): rejected in production,
# warned about elsewhere so tests and demos can use them.
PLACEHOLDER_SUFFIXES = ("example", "test", "invalid")
PLACEHOLDER_DOMAINS = ("example.com", "example.net", "example.org")

_LABEL_RE = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_TLD_RE = re.compile(r"^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")
_NUMERIC_LABEL_RE = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$")
_CANONICAL_OCTET_RE = re.compile(r"^(?:0|[1-9][0-9]{0,2})$")
_URL_FORBIDDEN_RE = re.compile(r"[\s\\@\x00-\x1f\x7f]")
_ENCODED_SEPARATOR_RE = re.compile(r"%(?:2f|5c|00)", re.I)
_ENCODED_DOT_RE = re.compile(r"%2e", re.I)
# Escapes that servers decode differently: invalid ones (%zz, %u002e), a percent-encoded '%' before
# '.', '/', '\\', NUL or '%' (double encoding), and overlong UTF-8 lead bytes (%c0%ae is '.').
_AMBIGUOUS_ESCAPE_RE = re.compile(r"%(?![0-9a-f]{2})|%25(?:2e|2f|5c|00|25)|%c[01]", re.I)
_ENCODED_SEMICOLON_RE = re.compile(r"%3b", re.I)

# IPv4 ranges that are never a public web server, whatever ipaddress' flags say on this Python.
_BLOCKED_V4 = tuple(
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",
        "100.64.0.0/10",  # CGNAT
        "127.0.0.0/8",
        "169.254.0.0/16",  # link-local, cloud metadata
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",  # 6to4 relay anycast
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, broadcast
    )
)
_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
_DOCUMENTATION_V6 = ipaddress.IPv6Network("3fff::/20")  # RFC 9637; `is_global` on 3.11 says True
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
_TEREDO = ipaddress.IPv6Network("2001::/32")


@dataclass(frozen=True)
class Issue:
    """One problem: the field it is in, a stable code, and a plain-language message."""

    field: str
    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


def is_public_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True only for global unicast addresses, after unwrapping IPv4 embedded in IPv6."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public_address(embedded)
        if address.ipv4_mapped is None and int(address) >> 32 == 0:
            return False  # ::/96 IPv4-compatible, ::, ::1
        return (
            address in _GLOBAL_UNICAST_V6
            and address not in _DOCUMENTATION_V6
            and address.is_global
            and not (address.is_multicast or address.is_reserved or address.is_link_local)
        )
    if any(address in net for net in _BLOCKED_V4):
        return False
    return address.is_global and not (
        address.is_multicast or address.is_reserved or address.is_loopback or address.is_link_local
    )


def host_issues(
    host: str, *, production: bool, field_name: str = "url"
) -> tuple[list[Issue], list[Issue]]:
    """Errors and warnings for a URL host (already lower-cased, brackets removed).

    An ordered list of rules, the order being the policy: the host's shape and IP literals here,
    then the DNS-name rules (``_dns_name_issues``).
    """
    if not host:
        return [
            Issue(
                field_name,
                "missing_host",
                f"{field_name} has no host name; give the full https:// address.",
            )
        ], []
    if "%" in host:
        return [
            Issue(
                field_name,
                "bad_host",
                f"{field_name} host {host!r} contains '%'; IPv6 zone ids and encoded host names are not accepted.",
            )
        ], []
    if ":" in host:
        return _ip_literal_issues(host, field_name)
    if host.endswith("."):
        return [
            Issue(
                field_name,
                "trailing_dot",
                f"{field_name} host {host!r} ends with a dot; remove the trailing dot.",
            )
        ], []
    labels = host.split(".")
    if all(_NUMERIC_LABEL_RE.match(label) for label in labels if label) or _NUMERIC_LABEL_RE.match(
        labels[-1]
    ):
        if _is_canonical_dotted_quad(host):
            return _ip_literal_issues(host, field_name)
        return [
            Issue(
                field_name,
                "non_canonical_numeric_host",
                f"{field_name} host {host!r} is a numeric address in a non-standard notation (decimal, "
                "octal, hex or shortened) that resolvers read as an IP address; name the source by its "
                "DNS host name.",
            )
        ], []
    return _dns_name_issues(host, labels, production=production, field_name=field_name)


def _dns_name_issues(
    host: str, labels: list[str], *, production: bool, field_name: str
) -> tuple[list[Issue], list[Issue]]:
    """A non-numeric host: ASCII, public (not internal, not single-label), valid, not a placeholder."""
    errors: list[Issue] = []
    warnings: list[Issue] = []
    if not host.isascii():
        return [
            Issue(
                field_name,
                "non_ascii_host",
                f"{field_name} host {host!r} has non-ASCII characters; use the punycode (xn--) form.",
            )
        ], []
    for suffix in INTERNAL_SUFFIXES:
        if host == suffix or host.endswith("." + suffix):
            errors.append(
                Issue(
                    field_name,
                    "internal_host",
                    f"{field_name} host {host!r} is a local or internal name (.{suffix}); only public sources may be registered.",
                )
            )
            return errors, warnings
    if len(labels) < 2:
        return [
            Issue(
                field_name,
                "single_label_host",
                f"{field_name} host {host!r} is a single-label (intranet-style) name; use the source's public DNS name.",
            )
        ], []
    if (
        len(host) > 253
        or not all(_LABEL_RE.match(label) for label in labels)
        or not _TLD_RE.match(labels[-1])
    ):
        return [
            Issue(
                field_name,
                "bad_host",
                f"{field_name} host {host!r} is not a valid public DNS name (letters, digits and hyphens in dot-separated labels).",
            )
        ], []
    placeholder = next(
        (s for s in PLACEHOLDER_SUFFIXES if host == s or host.endswith("." + s)), None
    ) or next((d for d in PLACEHOLDER_DOMAINS if host == d or host.endswith("." + d)), None)
    if placeholder:
        message = (
            f"{field_name} host {host!r} is a reserved placeholder domain ({placeholder}); "
            "production registries must name real approved sources."
        )
        (errors if production else warnings).append(
            Issue(field_name, "placeholder_domain", message)
        )
    return errors, warnings


def normalise_path(path: str) -> str | None:
    """Decode percent-encoded dots and remove dot-segments (RFC 3986 5.2.4); None if unsafe."""
    if _ENCODED_SEPARATOR_RE.search(path):
        return None
    path = _ENCODED_DOT_RE.sub(".", path) or "/"
    out: list[str] = []
    segments = path.split("/")
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        if segment == ".":
            if last:
                out.append("")
            continue
        if segment == "..":
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
            continue
        out.append(segment)
    result = "/".join(out)
    return result if result.startswith("/") else "/" + result


def ambiguous_path(path: str) -> bool:
    """True when servers may disagree on what the path means, so a prefix check could not hold.

    That is: an escape some servers decode twice or leniently (see _AMBIGUOUS_ESCAPE_RE), or a
    dot-segment with path parameters (``..;x``, ``%2e%2e;``, ``..%3b``), which Tomcat-style servers
    read as ``..`` after stripping the parameters.
    """
    if _AMBIGUOUS_ESCAPE_RE.search(path):
        return True
    plain = _ENCODED_SEMICOLON_RE.sub(";", _ENCODED_DOT_RE.sub(".", path))
    return any(
        ";" in segment and segment.split(";", 1)[0] in (".", "..") for segment in plain.split("/")
    )


def path_within_prefix(path: str, prefix: str) -> bool:
    """Segment-aware prefix test: ``/docs`` admits ``/docs`` and ``/docs/x``, never ``/docs-evil``."""
    base = prefix.rstrip("/")
    return not base or path == base or path.startswith(base + "/")


def check_url_in_scope(
    url: str,
    *,
    allowed_origin: str,
    allowed_path_prefix: str,
    allowed_ports: frozenset[int] | None = None,
) -> tuple[str | None, str | None]:
    """Validate a URL (e.g. a redirect target) against a record's origin and prefix.

    Returns (normalised_url, None) or (None, reason). Used by the fetch adapter for every hop.
    """
    issues: list[Issue] = []
    parsed = parse_https_url(
        url, "url", issues, production=False, allowed_ports=permitted_ports(allowed_ports)
    )
    if parsed is None:
        return None, issues[0].message if issues else "the URL is not allowed"
    origin, path, query = parsed
    if origin != allowed_origin:
        return None, f"the URL leaves the allowed origin {allowed_origin}"
    if not path_within_prefix(path, allowed_path_prefix):
        return None, f"the URL leaves the allowed path prefix {allowed_path_prefix}"
    return origin + path + (f"?{query}" if query else ""), None


def permitted_ports(allowed: frozenset[int] | None) -> frozenset[int]:
    """Port 443 plus ``allowed``; plus AICD_CURRENT_CONTEXT_ALLOWED_PORTS when ``allowed`` is None."""
    if allowed is None:
        configured = settings.AICD_CURRENT_CONTEXT_ALLOWED_PORTS if settings.configured else ()
        allowed = frozenset(int(p) for p in configured or ())
    return frozenset(allowed) | {DEFAULT_PORT}


def parse_https_url(
    value: str,
    field_name: str,
    errors: list[Issue],
    *,
    production: bool,
    allowed_ports: frozenset[int],
    warnings: list[Issue] | None = None,
) -> tuple[str, str, str] | None:
    """(origin, normalised path, query) for a safe https URL, or None with errors appended.

    An ordered list of URL rules, each ending the parse with its issue: the text and scheme
    (``_split_https``), the host (``host_issues``), the port, then the path (``_checked_path``).
    """
    split = _split_https(value, field_name)
    if isinstance(split, Issue):
        errors.append(split)
        return None
    parts, port = split
    host = (parts.hostname or "").lower()
    host_errors, host_warnings = host_issues(host, production=production, field_name=field_name)
    if host_errors:
        errors.extend(host_errors)
        return None
    if warnings is not None:
        warnings.extend(host_warnings)
    if port is not None and port not in allowed_ports:
        errors.append(
            Issue(
                field_name,
                "port_not_allowed",
                f"{field_name} uses port {port}; only port 443 is fetched unless the operator lists the port in "
                "AICD_CURRENT_CONTEXT_ALLOWED_PORTS.",
            )
        )
        return None
    if parts.fragment and warnings is not None:
        warnings.append(
            Issue(
                field_name,
                "fragment_dropped",
                f"{field_name} has a #fragment; it is never sent and is dropped.",
            )
        )
    path = _checked_path(parts.path, field_name)
    if isinstance(path, Issue):
        errors.append(path)
        return None
    display_host = f"[{host}]" if ":" in host else host
    origin = f"https://{display_host}" + (f":{port}" if port not in (None, DEFAULT_PORT) else "")
    return origin, path, parts.query


def _checked_path(raw_path: str, field_name: str) -> str | Issue:
    """The normalised path, or the issue that makes servers read it in different ways."""
    if ambiguous_path(raw_path):
        return Issue(
            field_name,
            "ambiguous_path",
            f"{field_name} path has a segment servers may read differently (a '..;' or '.;' path parameter, "
            "a double-encoded or invalid %-escape, or an overlong UTF-8 dot); write the path plainly.",
        )
    path = normalise_path(raw_path or "/")
    if path is None:
        return Issue(
            field_name,
            "encoded_separator",
            f"{field_name} path contains an encoded '/', '\\' or NUL (%2F, %5C, %00); write the path plainly.",
        )
    return path


def _split_https(value: str, field_name: str) -> tuple[SplitResult, int | None] | Issue:
    """The URL's parts and port, or the first issue with its text or its https scheme."""
    if len(value) > MAX_URL_CHARS:
        return Issue(
            field_name, "too_long", f"{field_name} is longer than {MAX_URL_CHARS} characters."
        )
    if _URL_FORBIDDEN_RE.search(value):
        return Issue(
            field_name,
            "forbidden_characters",
            f"{field_name} contains a space, backslash, '@' or control character; these let URL parsers "
            "disagree about the host, so they are never accepted (credentials in URLs are not allowed either).",
        )
    if not value.isascii():
        return Issue(
            field_name,
            "non_ascii",
            f"{field_name} has non-ASCII characters; percent-encode the path or use the punycode host.",
        )
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return Issue(
            field_name,
            "unparseable",
            f"{field_name} is not a valid URL (check the host and port).",
        )
    if parts.scheme.lower() != "https":
        return Issue(
            field_name,
            "not_https",
            f"{field_name} must use https://; other schemes ({parts.scheme or 'none'}) are not fetched.",
        )
    if parts.username is not None or parts.password is not None:
        return Issue(
            field_name, "credentials", f"{field_name} must not carry a user name or password."
        )
    return parts, port


def _is_canonical_dotted_quad(host: str) -> bool:
    labels = host.split(".")
    return len(labels) == 4 and all(_CANONICAL_OCTET_RE.match(x) and int(x) <= 255 for x in labels)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if any(address in net for net in _NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _TEREDO and address.teredo is not None:
        server, client = address.teredo
        return client if is_public_address(server) else server
    return None


def _ip_literal_issues(host: str, field_name: str) -> tuple[list[Issue], list[Issue]]:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return [
            Issue(
                field_name,
                "bad_host",
                f"{field_name} host {host!r} is not a valid IP address or DNS name.",
            )
        ], []
    if not is_public_address(address):
        return [
            Issue(
                field_name,
                "non_public_address",
                f"{field_name} host {host} is a private, loopback, link-local, shared, multicast or reserved "
                "address (embedded IPv4 included); only public sources may be registered.",
            )
        ], []
    return [], [
        Issue(
            field_name,
            "ip_literal_host",
            f"{field_name} host {host} is an IP address; certificates rarely cover addresses, so prefer the DNS name.",
        )
    ]
