"""Host rules: which URL hosts (DNS names and IP literals) a registry record or a fetch may name.

An ordered list of rules: the host's shape, IP literals (public addresses only, never a numeric
spelling resolvers read differently), then the DNS-name rules (public, valid, not a placeholder
in production).
"""

from __future__ import annotations

import ipaddress
import re

from core.addresses import is_public_address
from core.issues import Issue

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


def _is_canonical_dotted_quad(host: str) -> bool:
    labels = host.split(".")
    return len(labels) == 4 and all(_CANONICAL_OCTET_RE.match(x) and int(x) <= 255 for x in labels)


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
