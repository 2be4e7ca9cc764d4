"""The one validator for the current-source registry: offline, record by record, never raising.

Everything here is pure string and number work: no network, no DNS. The fetch adapter re-checks
the peer address at connect time (assistant.current.fetch); this module decides what a registry
may name at all.
"""

from __future__ import annotations

import ipaddress
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

MAX_REGISTRY_BYTES = 256 * 1024
MAX_RECORDS = 50
MAX_DEPTH = 6
MAX_QUERY_TERMS = 25
MAX_QUERY_TERM_CHARS = 80
MAX_URL_CHARS = 2048
DEFAULT_PORT = 443

TRUST_LABELS = (
    "authoritative",
    "vendor/self-published",
    "community",
    "news",
    "standards",
    "documentation",
    "unknown",
)
REQUIRED_FIELDS = (
    "id",
    "title",
    "url",
    "allowed_origin",
    "allowed_path_prefix",
    "source_type",
    "trust_label",
    "freshness_label",
    "claim_boundary",
)
OPTIONAL_FIELDS = ("query_terms",)
FIELD_MAX_CHARS = {
    "id": 80,
    "title": 200,
    "url": MAX_URL_CHARS,
    "allowed_origin": 300,
    "allowed_path_prefix": 500,
    "source_type": 80,
    "trust_label": 40,
    "freshness_label": 200,
    "claim_boundary": 1000,
}

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

_ID_RE = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,78}[a-z0-9])?$")
_LABEL_RE = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_TLD_RE = re.compile(r"^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")
_NUMERIC_LABEL_RE = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$")
_CANONICAL_OCTET_RE = re.compile(r"^(?:0|[1-9][0-9]{0,2})$")
_PREFIX_RE = re.compile(r"^/[A-Za-z0-9._~/-]*$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
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


@dataclass(frozen=True)
class SourceRecord:
    """A valid, normalised registry record: the only shape the fetch adapter ever sees."""

    id: str
    title: str
    url: str
    allowed_origin: str
    allowed_path_prefix: str
    source_type: str
    trust_label: str
    freshness_label: str
    claim_boundary: str
    query_terms: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "url": self.url,
            "allowed_origin": self.allowed_origin,
            "allowed_path_prefix": self.allowed_path_prefix,
            "source_type": self.source_type,
            "trust_label": self.trust_label,
            "freshness_label": self.freshness_label,
            "claim_boundary": self.claim_boundary,
            "query_terms": list(self.query_terms),
        }


@dataclass(frozen=True)
class RecordReport:
    """The verdict on one submitted record, with the submitted fields kept for display."""

    index: int
    id: str | None
    valid: bool
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    record: SourceRecord | None
    raw: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "id": self.id,
            "valid": self.valid,
            "errors": [i.message for i in self.errors],
            "warnings": [i.message for i in self.warnings],
            "details": {
                "errors": [i.to_dict() for i in self.errors],
                "warnings": [i.to_dict() for i in self.warnings],
            },
            "record": self.record.to_dict() if self.record else None,
        }


@dataclass(frozen=True)
class RegistryReport:
    """The verdict on a whole registry document: its state, document errors and each record."""

    state: str
    document_errors: tuple[Issue, ...] = ()
    records: tuple[RecordReport, ...] = ()

    @property
    def valid_records(self) -> tuple[SourceRecord, ...]:
        """Records the adapter may use: none at all when the document itself is broken."""
        if self.document_errors:
            return ()
        return tuple(r.record for r in self.records if r.valid and r.record is not None)

    @property
    def dropped_count(self) -> int:
        return sum(1 for r in self.records if not r.valid)

    @property
    def adapter_outcome(self) -> str:
        """What `allowlisted_public_fetch` would do with this registry, in a few words."""
        usable = len(self.valid_records)
        if not usable:
            return "unconfigured"
        noun = "source" if usable == 1 else "sources"
        dropped = self.dropped_count
        if dropped:
            return f"ready with {usable} {noun} ({dropped} invalid record{'s' if dropped != 1 else ''} dropped)"
        return f"ready with {usable} {noun}"

    def summary(self) -> str:
        """One plain sentence on why the registry can or cannot be used (for adapter details)."""
        if self.state == "empty":
            return "No current-source registry is configured, or it lists no sources."
        if self.document_errors:
            return "The registry cannot be used: " + " ".join(i.message for i in self.document_errors)
        if not self.valid_records:
            return "The registry has no valid source record; every record was rejected."
        return f"The registry is {self.adapter_outcome}."

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "records": [r.to_dict() for r in self.records],
            "document_errors": [i.to_dict() for i in self.document_errors],
            "adapter_outcome": self.adapter_outcome,
        }


# --------------------------------------------------------------------------- public functions
def validate_registry_text(
    text: str, *, production: bool, allowed_ports: frozenset[int] | None = None
) -> RegistryReport:
    """Validate a registry given as JSON text; size, depth and record count are bounded."""
    try:
        return _validate_text(text, production=production, allowed_ports=allowed_ports)
    except Exception:  # noqa: BLE001 - the contract is "never raises"; the reason is generic
        return _document_error("unreadable", "The registry could not be validated; check that it is a JSON object.")


def validate_registry_data(
    data: object, *, production: bool, allowed_ports: frozenset[int] | None = None
) -> RegistryReport:
    """Validate an already-parsed registry (for example a DRF request body)."""
    try:
        return _validate_data(data, production=production, allowed_ports=_ports(allowed_ports))
    except Exception:  # noqa: BLE001
        return _document_error("unreadable", "The registry could not be validated; check that it is a JSON object.")


def configured_registry_report() -> RegistryReport:
    """The report for AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON as this server is configured."""
    from django.conf import settings

    text = getattr(settings, "AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON", "") or ""
    production = getattr(settings, "AICD_ENVIRONMENT", "development") == "production"
    return validate_registry_text(text, production=production)


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


def host_issues(host: str, *, production: bool, field_name: str = "url") -> tuple[list[Issue], list[Issue]]:
    """Errors and warnings for a URL host (already lower-cased, brackets removed)."""
    errors: list[Issue] = []
    warnings: list[Issue] = []
    if not host:
        return [Issue(field_name, "missing_host", f"{field_name} has no host name; give the full https:// address.")], []
    if "%" in host:
        return [Issue(field_name, "bad_host", f"{field_name} host {host!r} contains '%'; IPv6 zone ids and encoded host names are not accepted.")], []
    if ":" in host:
        return _ip_literal_issues(host, field_name)
    if host.endswith("."):
        return [Issue(field_name, "trailing_dot", f"{field_name} host {host!r} ends with a dot; remove the trailing dot.")], []
    labels = host.split(".")
    if all(_NUMERIC_LABEL_RE.match(label) for label in labels if label) or _NUMERIC_LABEL_RE.match(labels[-1]):
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
    if not host.isascii():
        return [Issue(field_name, "non_ascii_host", f"{field_name} host {host!r} has non-ASCII characters; use the punycode (xn--) form.")], []
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
        return [Issue(field_name, "single_label_host", f"{field_name} host {host!r} is a single-label (intranet-style) name; use the source's public DNS name.")], []
    if len(host) > 253 or not all(_LABEL_RE.match(label) for label in labels) or not _TLD_RE.match(labels[-1]):
        return [Issue(field_name, "bad_host", f"{field_name} host {host!r} is not a valid public DNS name (letters, digits and hyphens in dot-separated labels).")], []
    placeholder = next(
        (s for s in PLACEHOLDER_SUFFIXES if host == s or host.endswith("." + s)), None
    ) or next((d for d in PLACEHOLDER_DOMAINS if host == d or host.endswith("." + d)), None)
    if placeholder:
        message = (
            f"{field_name} host {host!r} is a reserved placeholder domain ({placeholder}); "
            "production registries must name real approved sources."
        )
        (errors if production else warnings).append(Issue(field_name, "placeholder_domain", message))
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
    return any(";" in segment and segment.split(";", 1)[0] in (".", "..") for segment in plain.split("/"))


def path_within_prefix(path: str, prefix: str) -> bool:
    """Segment-aware prefix test: ``/docs`` admits ``/docs`` and ``/docs/x``, never ``/docs-evil``."""
    base = prefix.rstrip("/")
    return not base or path == base or path.startswith(base + "/")


def check_url_in_scope(
    url: str, *, allowed_origin: str, allowed_path_prefix: str, allowed_ports: frozenset[int] | None = None
) -> tuple[str | None, str | None]:
    """Validate a URL (e.g. a redirect target) against a record's origin and prefix.

    Returns (normalised_url, None) or (None, reason). Used by the fetch adapter for every hop.
    """
    issues: list[Issue] = []
    parsed = _parse_https_url(url, "url", issues, production=False, allowed_ports=_ports(allowed_ports))
    if parsed is None:
        return None, issues[0].message if issues else "the URL is not allowed"
    origin, path, query = parsed
    if origin != allowed_origin:
        return None, f"the URL leaves the allowed origin {allowed_origin}"
    if not path_within_prefix(path, allowed_path_prefix):
        return None, f"the URL leaves the allowed path prefix {allowed_path_prefix}"
    return origin + path + (f"?{query}" if query else ""), None


# --------------------------------------------------------------------------------- internals
def _ports(allowed: frozenset[int] | None) -> frozenset[int]:
    if allowed is not None:
        return frozenset(allowed) | {DEFAULT_PORT}
    try:
        from django.conf import settings

        extra = getattr(settings, "AICD_CURRENT_CONTEXT_ALLOWED_PORTS", ()) or ()
    except Exception:  # noqa: BLE001 - settings not configured: the default port only
        extra = ()
    return frozenset(int(p) for p in extra) | {DEFAULT_PORT}


def _document_error(code: str, message: str, field_name: str = "registry") -> RegistryReport:
    return RegistryReport(state="invalid", document_errors=(Issue(field_name, code, message),))


def _validate_text(text: str, *, production: bool, allowed_ports: frozenset[int] | None) -> RegistryReport:
    if not isinstance(text, str):
        return _document_error("type", "The registry must be JSON text.")
    size = len(text.encode("utf-8", errors="replace"))
    if size > MAX_REGISTRY_BYTES:
        return _document_error(
            "too_large",
            f"The registry is {size:,} bytes; the limit is {MAX_REGISTRY_BYTES:,} bytes. Split it or remove unused records.",
        )
    if not text.strip():
        return RegistryReport(state="empty")
    duplicates: list[str] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                duplicates.append(key)
            seen[key] = value
        return seen

    def reject_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=reject_constant)
    except json.JSONDecodeError as exc:
        return _document_error(
            "json_syntax",
            f"The registry is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}. "
            "Fix the syntax there (quotes, commas, brackets).",
        )
    except RecursionError:
        return _document_error("too_deep", f"The registry is nested too deeply; records are flat objects (at most {MAX_DEPTH} levels).")
    except ValueError as exc:
        return _document_error("json_value", f"The registry contains a value JSON does not allow ({_short(str(exc))}).")
    if duplicates:
        keys = ", ".join(sorted({repr(k) for k in duplicates}))
        return _document_error(
            "duplicate_key",
            f"The key {keys} appears more than once in the same object; readers disagree on which value wins, so give each key once.",
        )
    return _validate_data(data, production=production, allowed_ports=_ports(allowed_ports))


def _depth(value: object) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        if isinstance(node, dict):
            stack.extend((v, level + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, level + 1) for v in node)
    return deepest


def _validate_data(data: object, *, production: bool, allowed_ports: frozenset[int]) -> RegistryReport:
    if not isinstance(data, dict):
        return _document_error("not_object", 'The registry must be a JSON object of the form {"sources": [...]}.')
    if _depth(data) > MAX_DEPTH:
        return _document_error("too_deep", f"The registry is nested more than {MAX_DEPTH} levels deep; records are flat objects.")
    if "sources" not in data:
        return _document_error("missing_sources", 'The registry has no "sources" list; put the records in {"sources": [...]}.', "sources")
    sources = data["sources"]
    if not isinstance(sources, list):
        return _document_error("sources_type", '"sources" must be a list of record objects.', "sources")
    if not sources:
        return RegistryReport(state="empty")
    if len(sources) > MAX_RECORDS:
        return _document_error(
            "too_many_records", f"The registry lists {len(sources)} records; the limit is {MAX_RECORDS}.", "sources"
        )
    reports: list[RecordReport] = []
    first_index: dict[str, int] = {}
    for index, raw in enumerate(sources, 1):
        report = _validate_record(index, raw, production=production, allowed_ports=allowed_ports)
        rid = report.id
        if rid is not None:
            if rid in first_index:
                duplicate = Issue(
                    "id",
                    "duplicate_id",
                    f"id {rid!r} is already used by record {first_index[rid]}; every record needs its own id.",
                )
                report = RecordReport(
                    index=report.index, id=report.id, valid=False, errors=report.errors + (duplicate,),
                    warnings=report.warnings, record=None, raw=report.raw,
                )
            else:
                first_index[rid] = index
        reports.append(report)
    state = "valid" if all(r.valid for r in reports) else "invalid"
    return RegistryReport(state=state, records=tuple(reports))


def _short(text: str, limit: int = 80) -> str:
    flat = _CONTROL_RE.sub(" ", text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _display_raw(raw: dict[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for key, value in list(raw.items())[:40]:
        name = _short(str(key), 60)
        if isinstance(value, str):
            shown[name] = _short(value, 2100)
        elif isinstance(value, list):
            shown[name] = [_short(str(v), 120) for v in value[:MAX_QUERY_TERMS + 5]]
        elif value is None or isinstance(value, bool | int | float):
            shown[name] = value
        else:
            shown[name] = _short(json.dumps(value, default=str), 200)
    return shown


def _validate_record(index: int, raw: object, *, production: bool, allowed_ports: frozenset[int]) -> RecordReport:
    if not isinstance(raw, dict):
        issue = Issue("record", "not_object", f"Record {index} is not a JSON object; each record is an object of named fields.")
        return RecordReport(index=index, id=None, valid=False, errors=(issue,), warnings=(), record=None, raw={})
    errors: list[Issue] = []
    warnings: list[Issue] = []
    values: dict[str, str] = {}
    for name in REQUIRED_FIELDS:
        value = _required_string(raw, name, errors)
        if value is not None:
            values[name] = value
    for key in raw:
        if key not in REQUIRED_FIELDS and key not in OPTIONAL_FIELDS:
            warnings.append(Issue(str(key), "unknown_field", f"Field {_short(str(key), 40)!r} is not part of a source record and is ignored."))

    record_id = values.get("id")
    if record_id is not None and not _ID_RE.match(record_id):
        errors.append(Issue("id", "bad_id", f"id {_short(record_id)!r} must be lower-case letters, digits, '.', '_' or '-' (start and end with a letter or digit)."))
    trust = values.get("trust_label")
    if trust is not None:
        values["trust_label"] = trust.lower()
        if trust.lower() not in TRUST_LABELS:
            errors.append(Issue("trust_label", "unknown_trust_label", f"trust_label {_short(trust)!r} is not a known label; use one of: {', '.join(TRUST_LABELS)}."))
    terms = _query_terms(raw, errors, warnings)

    origin = _origin(values.get("allowed_origin"), errors, warnings, production, allowed_ports)
    prefix = _prefix(values.get("allowed_path_prefix"), errors)
    url = None
    if "url" in values:
        parsed = _parse_https_url(values["url"], "url", errors, production=production, allowed_ports=allowed_ports, warnings=warnings)
        if parsed is not None:
            url_origin, path, query = parsed
            if origin is not None and url_origin != origin:
                errors.append(Issue("url", "origin_mismatch", f"url is on {url_origin}, outside allowed_origin {origin}; the url must be on the allowed origin."))
            elif prefix is not None and not path_within_prefix(path, prefix):
                errors.append(Issue("url", "outside_prefix", f"url path {_short(path)!r} is outside allowed_path_prefix {prefix!r} (prefixes match whole path segments)."))
            url = url_origin + path + (f"?{query}" if query else "")

    valid = not errors and url is not None and origin is not None and prefix is not None
    record = None
    if valid:
        record = SourceRecord(
            id=values["id"],
            title=" ".join(values["title"].split()),
            url=url or "",
            allowed_origin=origin or "",
            allowed_path_prefix=prefix or "",
            source_type=values["source_type"],
            trust_label=values["trust_label"],
            freshness_label=values["freshness_label"],
            claim_boundary=" ".join(values["claim_boundary"].split()),
            query_terms=terms,
        )
    shown_id = record_id if record_id is not None and _ID_RE.match(record_id) else (_short(record_id) if record_id else None)
    return RecordReport(
        index=index, id=shown_id, valid=valid, errors=tuple(errors), warnings=tuple(warnings), record=record, raw=_display_raw(raw)
    )


def _required_string(raw: dict[str, Any], name: str, errors: list[Issue]) -> str | None:
    if name not in raw or raw[name] is None:
        errors.append(Issue(name, "missing", f"{name} is missing; every record needs {name}."))
        return None
    value = raw[name]
    if not isinstance(value, str):
        errors.append(Issue(name, "type", f"{name} must be a string, not {type(value).__name__}."))
        return None
    value = value.strip()
    if not value:
        errors.append(Issue(name, "blank", f"{name} is empty; give a value."))
        return None
    limit = FIELD_MAX_CHARS[name]
    if len(value) > limit:
        errors.append(Issue(name, "too_long", f"{name} is {len(value)} characters; the limit is {limit}."))
        return None
    if _CONTROL_RE.search(value):
        errors.append(Issue(name, "control_characters", f"{name} contains control characters or line breaks; remove them."))
        return None
    return value


def _query_terms(raw: dict[str, Any], errors: list[Issue], warnings: list[Issue]) -> tuple[str, ...]:
    never = Issue("query_terms", "no_query_terms", "query_terms is empty or missing, so this source will never be selected for a question.")
    if "query_terms" not in raw or raw["query_terms"] is None:
        warnings.append(never)
        return ()
    value = raw["query_terms"]
    if not isinstance(value, list):
        errors.append(Issue("query_terms", "type", "query_terms must be a list of short strings."))
        return ()
    if len(value) > MAX_QUERY_TERMS:
        errors.append(Issue("query_terms", "too_many", f"query_terms has {len(value)} entries; the limit is {MAX_QUERY_TERMS}."))
        return ()
    terms: list[str] = []
    for i, term in enumerate(value, 1):
        if not isinstance(term, str):
            errors.append(Issue("query_terms", "type", f"query_terms entry {i} must be a string, not {type(term).__name__}."))
            continue
        flat = " ".join(term.split())
        if not flat:
            errors.append(Issue("query_terms", "blank", f"query_terms entry {i} is empty."))
        elif len(flat) > MAX_QUERY_TERM_CHARS:
            errors.append(Issue("query_terms", "too_long", f"query_terms entry {i} is {len(flat)} characters; the limit is {MAX_QUERY_TERM_CHARS}."))
        elif _CONTROL_RE.search(term.replace("\n", " ").replace("\t", " ")):
            errors.append(Issue("query_terms", "control_characters", f"query_terms entry {i} contains control characters."))
        elif flat.lower() not in (t.lower() for t in terms):
            terms.append(flat)
    if not terms and not errors:
        warnings.append(never)
    return tuple(terms)


def _origin(
    value: str | None, errors: list[Issue], warnings: list[Issue], production: bool, allowed_ports: frozenset[int]
) -> str | None:
    if value is None:
        return None
    before = len(errors)
    parsed = _parse_https_url(value, "allowed_origin", errors, production=production, allowed_ports=allowed_ports, warnings=warnings)
    if parsed is None:
        return None
    origin, path, query = parsed
    if path != "/" or query or value.rstrip("/").count("/") > 2 or "#" in value:
        errors.append(Issue("allowed_origin", "not_origin", "allowed_origin must be only scheme and host, like https://www.nist.gov (no path, query or fragment)."))
    return origin if len(errors) == before else None


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
        errors.append(Issue("allowed_path_prefix", "dot_segments", "allowed_path_prefix must not contain '.', '..' or empty path segments."))
        return None
    return value.rstrip("/") or "/"


def _parse_https_url(
    value: str,
    field_name: str,
    errors: list[Issue],
    *,
    production: bool,
    allowed_ports: frozenset[int],
    warnings: list[Issue] | None = None,
) -> tuple[str, str, str] | None:
    """(origin, normalised path, query) for a safe https URL, or None with errors appended."""
    if len(value) > MAX_URL_CHARS:
        errors.append(Issue(field_name, "too_long", f"{field_name} is longer than {MAX_URL_CHARS} characters."))
        return None
    if _URL_FORBIDDEN_RE.search(value):
        errors.append(
            Issue(
                field_name,
                "forbidden_characters",
                f"{field_name} contains a space, backslash, '@' or control character; these let URL parsers "
                "disagree about the host, so they are never accepted (credentials in URLs are not allowed either).",
            )
        )
        return None
    if not value.isascii():
        errors.append(Issue(field_name, "non_ascii", f"{field_name} has non-ASCII characters; percent-encode the path or use the punycode host."))
        return None
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        errors.append(Issue(field_name, "unparseable", f"{field_name} is not a valid URL (check the host and port)."))
        return None
    if parts.scheme.lower() != "https":
        errors.append(Issue(field_name, "not_https", f"{field_name} must use https://; other schemes ({parts.scheme or 'none'}) are not fetched."))
        return None
    if parts.username is not None or parts.password is not None:
        errors.append(Issue(field_name, "credentials", f"{field_name} must not carry a user name or password."))
        return None
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
        warnings.append(Issue(field_name, "fragment_dropped", f"{field_name} has a #fragment; it is never sent and is dropped."))
    if ambiguous_path(parts.path):
        errors.append(
            Issue(
                field_name,
                "ambiguous_path",
                f"{field_name} path has a segment servers may read differently (a '..;' or '.;' path parameter, "
                "a double-encoded or invalid %-escape, or an overlong UTF-8 dot); write the path plainly.",
            )
        )
        return None
    path = normalise_path(parts.path or "/")
    if path is None:
        errors.append(Issue(field_name, "encoded_separator", f"{field_name} path contains an encoded '/', '\\' or NUL (%2F, %5C, %00); write the path plainly."))
        return None
    display_host = f"[{host}]" if ":" in host else host
    origin = f"https://{display_host}" + (f":{port}" if port not in (None, DEFAULT_PORT) else "")
    return origin, path, parts.query


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
        return [Issue(field_name, "bad_host", f"{field_name} host {host!r} is not a valid IP address or DNS name.")], []
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
