"""The one validator for the current-source registry: offline, document then record by record,
never raising.

Everything here is pure string and number work: no network, no DNS. This module reads the
registry document (JSON text: size, duplicate keys, depth; the ``sources`` list: count, duplicate
ids); each record is checked by ``registry_review.record_validation``, the fields it may hold are
in ``registry_review.record_schema``. URL and address safety is core/netguard.py; the fetch
adapter re-checks the peer address at connect time (assistant.current.fetch).
"""

from __future__ import annotations

import json
from typing import Any

from core import netguard
from core.issues import Issue
from registry_review.record_schema import short
from registry_review.record_validation import validate_record
from registry_review.records import RecordReport, RegistryReport

MAX_REGISTRY_BYTES = 256 * 1024
MAX_RECORDS = 50
MAX_DEPTH = 6


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
            "json_value", f"The registry contains a value JSON does not allow ({short(str(exc))})."
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
        report = validate_record(index, raw, production=production, allowed_ports=allowed_ports)
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
