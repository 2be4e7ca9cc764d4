"""Where a record may point: its allowed origin, its allowed path prefix, and a url inside both."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.issues import Issue
from core.netguard import parse_https_url
from core.url_paths import path_within_prefix
from registry_review.record_schema import short

_PREFIX_RE = re.compile(r"^/[A-Za-z0-9._~/-]*$")


@dataclass(frozen=True)
class Location:
    """A record's normalised url, the origin it lies on and the path prefix it lies inside."""

    url: str
    origin: str
    prefix: str


@dataclass(frozen=True)
class UrlChecks:
    """The URL policy a record is checked under, and the lists its issues are added to."""

    errors: list[Issue]
    warnings: list[Issue]
    production: bool
    allowed_ports: frozenset[int]

    def parse(self, value: str, field_name: str) -> tuple[str, str, str] | None:
        """(origin, normalised path, query) of a safe https URL, or None with its issue added."""
        return parse_https_url(
            value,
            field_name,
            self.errors,
            production=self.production,
            allowed_ports=self.allowed_ports,
            warnings=self.warnings,
        )


def location(values: dict[str, str], checks: UrlChecks) -> Location | None:
    """The record's origin, prefix and url, each checked (in that order), or None if one fails."""
    origin = _origin(values.get("allowed_origin"), checks)
    prefix = _prefix(values.get("allowed_path_prefix"), checks.errors)
    url = _record_url(values.get("url"), origin, prefix, checks)
    if url is None or origin is None or prefix is None:
        return None
    return Location(url=url, origin=origin, prefix=prefix)


def _record_url(
    value: str | None, origin: str | None, prefix: str | None, checks: UrlChecks
) -> str | None:
    """The normalised url, or None; it must lie on ``origin`` and inside ``prefix``."""
    if value is None:
        return None
    parsed = checks.parse(value, "url")
    if parsed is None:
        return None
    url_origin, path, query = parsed
    if origin is not None and url_origin != origin:
        checks.errors.append(
            Issue(
                "url",
                "origin_mismatch",
                f"url is on {url_origin}, outside allowed_origin {origin}; the url must be on the allowed origin.",
            )
        )
    elif prefix is not None and not path_within_prefix(path, prefix):
        checks.errors.append(
            Issue(
                "url",
                "outside_prefix",
                f"url path {short(path)!r} is outside allowed_path_prefix {prefix!r} (prefixes match whole path segments).",
            )
        )
    return url_origin + path + (f"?{query}" if query else "")


def _origin(value: str | None, checks: UrlChecks) -> str | None:
    if value is None:
        return None
    before = len(checks.errors)
    parsed = checks.parse(value, "allowed_origin")
    if parsed is None:
        return None
    origin, path, query = parsed
    if path != "/" or query or value.rstrip("/").count("/") > 2 or "#" in value:
        checks.errors.append(
            Issue(
                "allowed_origin",
                "not_origin",
                "allowed_origin must be only scheme and host, like https://www.nist.gov (no path, query or fragment).",
            )
        )
    return origin if len(checks.errors) == before else None


def _prefix(value: str | None, errors: list[Issue]) -> str | None:
    if value is None:
        return None
    if not _PREFIX_RE.match(value):
        errors.append(
            Issue(
                "allowed_path_prefix",
                "bad_prefix",
                "allowed_path_prefix must start with '/' and use only letters, digits, '-', '_', '.', '~' and '/' "
                "(no query, fragment, spaces or percent-encoding).",
            )
        )
        return None
    if "//" in value or any(seg in (".", "..") for seg in value.split("/")):
        errors.append(
            Issue(
                "allowed_path_prefix",
                "dot_segments",
                "allowed_path_prefix must not contain '.', '..' or empty path segments.",
            )
        )
        return None
    return value.rstrip("/") or "/"
