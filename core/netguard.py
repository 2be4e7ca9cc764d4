"""URL policy: which https URLs a public fetch may use, and whether a URL stays in a record's scope.

Pure string and number work: no network, no DNS. Registry validation (registry_review) decides
with it what a record may name; the fetcher (assistant.current) re-checks every redirect target
with ``check_url_in_scope`` and every connected peer with ``core.addresses.is_public_address``.
The rules for the host are in ``core.hostnames``, for the path in ``core.url_paths``.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

from core.hostnames import host_issues
from core.issues import Issue
from core.url_paths import checked_path, path_within_prefix

MAX_URL_CHARS = 2048
DEFAULT_PORT = 443

_URL_FORBIDDEN_RE = re.compile(r"[\s\\@\x00-\x1f\x7f]")


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
    path = checked_path(parts.path, field_name)
    if isinstance(path, Issue):
        errors.append(path)
        return None
    display_host = f"[{host}]" if ":" in host else host
    origin = f"https://{display_host}" + (f":{port}" if port not in (None, DEFAULT_PORT) else "")
    return origin, path, parts.query


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
