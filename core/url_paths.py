"""URL paths: dot-segment normalisation, escapes servers read differently, segment-aware prefixes."""

from __future__ import annotations

import re

from core.issues import Issue

_ENCODED_SEPARATOR_RE = re.compile(r"%(?:2f|5c|00)", re.I)
_ENCODED_DOT_RE = re.compile(r"%2e", re.I)
# Escapes that servers decode differently: invalid ones (%zz, %u002e), a percent-encoded '%' before
# '.', '/', '\\', NUL or '%' (double encoding), and overlong UTF-8 lead bytes (%c0%ae is '.').
_AMBIGUOUS_ESCAPE_RE = re.compile(r"%(?![0-9a-f]{2})|%25(?:2e|2f|5c|00|25)|%c[01]", re.I)
_ENCODED_SEMICOLON_RE = re.compile(r"%3b", re.I)


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


def checked_path(raw_path: str, field_name: str) -> str | Issue:
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
