"""The one validator for the current-source registry: offline, record by record, never raising.

Everything here is pure string and number work: no network, no DNS. URL and address safety is
core/netguard.py; the fetch adapter re-checks the peer address at connect time
(assistant.current.fetch); this module decides what a registry record may hold.
"""

from __future__ import annotations

import json
import re
from typing import Any

from core import netguard
from core.issues import Issue
from core.netguard import MAX_URL_CHARS, parse_https_url
from core.text import clip
from core.url_paths import path_within_prefix
from registry_review.records import QueryAlias, RecordReport, RegistryReport, SourceRecord

MAX_REGISTRY_BYTES = 256 * 1024
MAX_RECORDS = 50
MAX_DEPTH = 6
MAX_QUERY_TERMS = 25
MAX_QUERY_TERM_CHARS = 80
MAX_QUERY_ALIASES = 12
MAX_ALIAS_PATTERN_CHARS = 400

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
OPTIONAL_FIELDS = ("query_terms", "query_aliases")
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

_ID_RE = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,78}[a-z0-9])?$")
_PREFIX_RE = re.compile(r"^/[A-Za-z0-9._~/-]*$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


# --------------------------------------------------------------------------- public functions
def validate_registry_text(
    text: str, *, production: bool, allowed_ports: frozenset[int] | None = None
) -> RegistryReport:
    """Validate a registry given as JSON text; size, depth and record count are bounded."""
    try:
        return _validate_text(text, production=production, allowed_ports=allowed_ports)
    except Exception:  # noqa: BLE001 - the contract is "never raises"; the reason is generic
        return _document_error(
            "unreadable", "The registry could not be validated; check that it is a JSON object."
        )


def validate_registry_data(
    data: object, *, production: bool, allowed_ports: frozenset[int] | None = None
) -> RegistryReport:
    """Validate an already-parsed registry (for example a DRF request body)."""
    try:
        return _validate_data(
            data, production=production, allowed_ports=netguard.permitted_ports(allowed_ports)
        )
    except Exception:  # noqa: BLE001
        return _document_error(
            "unreadable", "The registry could not be validated; check that it is a JSON object."
        )


# --------------------------------------------------------------------------------- internals
def _document_error(code: str, message: str, field_name: str = "registry") -> RegistryReport:
    return RegistryReport(state="invalid", document_errors=(Issue(field_name, code, message),))


def _validate_text(
    text: str, *, production: bool, allowed_ports: frozenset[int] | None
) -> RegistryReport:
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
        return _document_error(
            "too_deep",
            f"The registry is nested too deeply; records are flat objects (at most {MAX_DEPTH} levels).",
        )
    except ValueError as exc:
        return _document_error(
            "json_value", f"The registry contains a value JSON does not allow ({_short(str(exc))})."
        )
    if duplicates:
        keys = ", ".join(sorted({repr(k) for k in duplicates}))
        return _document_error(
            "duplicate_key",
            f"The key {keys} appears more than once in the same object; readers disagree on which value wins, so give each key once.",
        )
    return _validate_data(
        data, production=production, allowed_ports=netguard.permitted_ports(allowed_ports)
    )


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


def _validate_data(
    data: object, *, production: bool, allowed_ports: frozenset[int]
) -> RegistryReport:
    if not isinstance(data, dict):
        return _document_error(
            "not_object", 'The registry must be a JSON object of the form {"sources": [...]}.'
        )
    if _depth(data) > MAX_DEPTH:
        return _document_error(
            "too_deep",
            f"The registry is nested more than {MAX_DEPTH} levels deep; records are flat objects.",
        )
    if "sources" not in data:
        return _document_error(
            "missing_sources",
            'The registry has no "sources" list; put the records in {"sources": [...]}.',
            "sources",
        )
    sources = data["sources"]
    if not isinstance(sources, list):
        return _document_error(
            "sources_type", '"sources" must be a list of record objects.', "sources"
        )
    if not sources:
        return RegistryReport(state="empty")
    if len(sources) > MAX_RECORDS:
        return _document_error(
            "too_many_records",
            f"The registry lists {len(sources)} records; the limit is {MAX_RECORDS}.",
            "sources",
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
                    index=report.index,
                    id=report.id,
                    valid=False,
                    errors=report.errors + (duplicate,),
                    warnings=report.warnings,
                    record=None,
                    raw=report.raw,
                )
            else:
                first_index[rid] = index
        reports.append(report)
    state = "valid" if all(r.valid for r in reports) else "invalid"
    return RegistryReport(state=state, records=tuple(reports))


def _short(text: str, limit: int = 80) -> str:
    flat = _CONTROL_RE.sub(" ", text)
    return clip(flat, limit)


def _display_raw(raw: dict[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {}
    for key, value in list(raw.items())[:40]:
        name = _short(str(key), 60)
        if isinstance(value, str):
            shown[name] = _short(value, 2100)
        elif isinstance(value, list):
            shown[name] = [_short(str(v), 120) for v in value[: MAX_QUERY_TERMS + 5]]
        elif value is None or isinstance(value, bool | int | float):
            shown[name] = value
        else:
            shown[name] = _short(json.dumps(value, default=str), 200)
    return shown


def _validate_record(
    index: int, raw: object, *, production: bool, allowed_ports: frozenset[int]
) -> RecordReport:
    if not isinstance(raw, dict):
        issue = Issue(
            "record",
            "not_object",
            f"Record {index} is not a JSON object; each record is an object of named fields.",
        )
        return RecordReport(
            index=index, id=None, valid=False, errors=(issue,), warnings=(), record=None, raw={}
        )
    errors: list[Issue] = []
    warnings: list[Issue] = []
    values: dict[str, str] = {}
    for name in REQUIRED_FIELDS:
        value = _required_string(raw, name, errors)
        if value is not None:
            values[name] = value
    warnings.extend(_unknown_fields(raw))
    _check_id_and_trust(values, errors)
    terms = _query_terms(raw, errors, warnings)
    aliases = _query_aliases(raw, errors)
    origin = _origin(values.get("allowed_origin"), errors, warnings, production, allowed_ports)
    prefix = _prefix(values.get("allowed_path_prefix"), errors)
    url = _record_url(
        values.get("url"),
        origin,
        prefix,
        errors,
        warnings,
        production=production,
        allowed_ports=allowed_ports,
    )

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
            query_aliases=aliases,
        )
    record_id = values.get("id")
    shown_id = (
        record_id
        if record_id is not None and _ID_RE.match(record_id)
        else (_short(record_id) if record_id else None)
    )
    return RecordReport(
        index=index,
        id=shown_id,
        valid=valid,
        errors=tuple(errors),
        warnings=tuple(warnings),
        record=record,
        raw=_display_raw(raw),
    )


def _unknown_fields(raw: dict[str, Any]) -> list[Issue]:
    return [
        Issue(
            str(key),
            "unknown_field",
            f"Field {_short(str(key), 40)!r} is not part of a source record and is ignored.",
        )
        for key in raw
        if key not in REQUIRED_FIELDS and key not in OPTIONAL_FIELDS
    ]


def _check_id_and_trust(values: dict[str, str], errors: list[Issue]) -> None:
    """The id's spelling; the trust label, lower-cased in ``values``, from the known list."""
    record_id = values.get("id")
    if record_id is not None and not _ID_RE.match(record_id):
        errors.append(
            Issue(
                "id",
                "bad_id",
                f"id {_short(record_id)!r} must be lower-case letters, digits, '.', '_' or '-' (start and end with a letter or digit).",
            )
        )
    trust = values.get("trust_label")
    if trust is not None:
        values["trust_label"] = trust.lower()
        if trust.lower() not in TRUST_LABELS:
            errors.append(
                Issue(
                    "trust_label",
                    "unknown_trust_label",
                    f"trust_label {_short(trust)!r} is not a known label; use one of: {', '.join(TRUST_LABELS)}.",
                )
            )


def _record_url(
    value: str | None,
    origin: str | None,
    prefix: str | None,
    errors: list[Issue],
    warnings: list[Issue],
    *,
    production: bool,
    allowed_ports: frozenset[int],
) -> str | None:
    """The normalised url, or None; it must lie on ``origin`` and inside ``prefix``."""
    if value is None:
        return None
    parsed = parse_https_url(
        value, "url", errors, production=production, allowed_ports=allowed_ports, warnings=warnings
    )
    if parsed is None:
        return None
    url_origin, path, query = parsed
    if origin is not None and url_origin != origin:
        errors.append(
            Issue(
                "url",
                "origin_mismatch",
                f"url is on {url_origin}, outside allowed_origin {origin}; the url must be on the allowed origin.",
            )
        )
    elif prefix is not None and not path_within_prefix(path, prefix):
        errors.append(
            Issue(
                "url",
                "outside_prefix",
                f"url path {_short(path)!r} is outside allowed_path_prefix {prefix!r} (prefixes match whole path segments).",
            )
        )
    return url_origin + path + (f"?{query}" if query else "")


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
        errors.append(
            Issue(name, "too_long", f"{name} is {len(value)} characters; the limit is {limit}.")
        )
        return None
    if _CONTROL_RE.search(value):
        errors.append(
            Issue(
                name,
                "control_characters",
                f"{name} contains control characters or line breaks; remove them.",
            )
        )
        return None
    return value


def _query_terms(
    raw: dict[str, Any], errors: list[Issue], warnings: list[Issue]
) -> tuple[str, ...]:
    never = Issue(
        "query_terms",
        "no_query_terms",
        "query_terms is empty or missing, so this source will never be selected for a question.",
    )
    if "query_terms" not in raw or raw["query_terms"] is None:
        warnings.append(never)
        return ()
    value = raw["query_terms"]
    if not isinstance(value, list):
        errors.append(Issue("query_terms", "type", "query_terms must be a list of short strings."))
        return ()
    if len(value) > MAX_QUERY_TERMS:
        errors.append(
            Issue(
                "query_terms",
                "too_many",
                f"query_terms has {len(value)} entries; the limit is {MAX_QUERY_TERMS}.",
            )
        )
        return ()
    terms: list[str] = []
    for i, term in enumerate(value, 1):
        if not isinstance(term, str):
            errors.append(
                Issue(
                    "query_terms",
                    "type",
                    f"query_terms entry {i} must be a string, not {type(term).__name__}.",
                )
            )
            continue
        flat = " ".join(term.split())
        if not flat:
            errors.append(Issue("query_terms", "blank", f"query_terms entry {i} is empty."))
        elif len(flat) > MAX_QUERY_TERM_CHARS:
            errors.append(
                Issue(
                    "query_terms",
                    "too_long",
                    f"query_terms entry {i} is {len(flat)} characters; the limit is {MAX_QUERY_TERM_CHARS}.",
                )
            )
        elif _CONTROL_RE.search(term.replace("\n", " ").replace("\t", " ")):
            errors.append(
                Issue(
                    "query_terms",
                    "control_characters",
                    f"query_terms entry {i} contains control characters.",
                )
            )
        elif flat.lower() not in (t.lower() for t in terms):
            terms.append(flat)
    if not terms and not errors:
        warnings.append(never)
    return tuple(terms)


def _query_aliases(raw: dict[str, Any], errors: list[Issue]) -> tuple[QueryAlias, ...]:
    """Optional ``query_aliases``: [{"term": ..., "pattern": ...}], each pattern a regex."""
    value = raw.get("query_aliases")
    if value is None:
        return ()
    shape = "query_aliases must be a list of objects with a string term and a string pattern."
    if not isinstance(value, list):
        errors.append(Issue("query_aliases", "type", shape))
        return ()
    if len(value) > MAX_QUERY_ALIASES:
        errors.append(
            Issue(
                "query_aliases",
                "too_many",
                f"query_aliases has {len(value)} entries; the limit is {MAX_QUERY_ALIASES}.",
            )
        )
        return ()
    aliases: list[QueryAlias] = []
    for i, item in enumerate(value, 1):
        problem = _alias_problem(item)
        if problem:
            errors.append(
                Issue("query_aliases", problem[0], f"query_aliases entry {i} {problem[1]}")
            )
        else:
            aliases.append(QueryAlias(" ".join(item["term"].split()), item["pattern"]))
    return tuple(aliases)


def _alias_problem(item: object) -> tuple[str, str] | None:
    """(code, the end of a sentence) for a malformed alias, or None."""
    if (
        not isinstance(item, dict)
        or set(item) != {"term", "pattern"}
        or not isinstance(item["term"], str)
        or not isinstance(item["pattern"], str)
    ):
        return "type", "must be an object with exactly a string term and a string pattern."
    term, pattern = " ".join(item["term"].split()), item["pattern"]
    if not term or not pattern.strip():
        return "blank", "needs a non-empty term and pattern."
    if len(term) > MAX_QUERY_TERM_CHARS or len(pattern) > MAX_ALIAS_PATTERN_CHARS:
        return "too_long", (
            f"is too long; a term may have {MAX_QUERY_TERM_CHARS} characters and a pattern "
            f"{MAX_ALIAS_PATTERN_CHARS}."
        )
    if _CONTROL_RE.search(item["term"]) or _CONTROL_RE.search(pattern):
        return "control_characters", "contains control characters."
    try:
        re.compile(pattern, re.I)
    except re.error:
        return "bad_pattern", "has a pattern that is not a valid regular expression."
    return None


def _origin(
    value: str | None,
    errors: list[Issue],
    warnings: list[Issue],
    production: bool,
    allowed_ports: frozenset[int],
) -> str | None:
    if value is None:
        return None
    before = len(errors)
    parsed = parse_https_url(
        value,
        "allowed_origin",
        errors,
        production=production,
        allowed_ports=allowed_ports,
        warnings=warnings,
    )
    if parsed is None:
        return None
    origin, path, query = parsed
    if path != "/" or query or value.rstrip("/").count("/") > 2 or "#" in value:
        errors.append(
            Issue(
                "allowed_origin",
                "not_origin",
                "allowed_origin must be only scheme and host, like https://www.nist.gov (no path, query or fragment).",
            )
        )
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
        errors.append(
            Issue(
                "allowed_path_prefix",
                "dot_segments",
                "allowed_path_prefix must not contain '.', '..' or empty path segments.",
            )
        )
        return None
    return value.rstrip("/") or "/"
