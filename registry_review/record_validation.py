"""One registry record checked: its fields, query vocabulary and location, as a RecordReport."""

from __future__ import annotations

import json
from typing import Any

from core.issues import Issue
from registry_review.query_vocabulary import query_aliases, query_terms
from registry_review.record_fields import check_id_and_trust, required_strings, unknown_fields
from registry_review.record_schema import ID_RE, MAX_QUERY_TERMS, short
from registry_review.record_urls import UrlChecks, location
from registry_review.records import RecordReport, SourceRecord


def validate_record(
    index: int, raw: object, *, production: bool, allowed_ports: frozenset[int]
) -> RecordReport:
    """The verdict on the ``index``-th record (from 1); a valid one carries its SourceRecord."""
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
    values = required_strings(raw, errors)
    warnings.extend(unknown_fields(raw))
    check_id_and_trust(values, errors)
    terms = query_terms(raw, errors, warnings)
    aliases = query_aliases(raw, errors)
    where = location(
        values,
        UrlChecks(errors, warnings, production=production, allowed_ports=allowed_ports),
    )

    valid = not errors and where is not None
    record = None
    if valid and where is not None:
        record = SourceRecord(
            id=values["id"],
            title=" ".join(values["title"].split()),
            url=where.url,
            allowed_origin=where.origin,
            allowed_path_prefix=where.prefix,
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
        if record_id is not None and ID_RE.match(record_id)
        else (short(record_id) if record_id else None)
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


def _display_raw(raw: dict[str, Any]) -> dict[str, Any]:
    """The submitted fields as the report shows them: bounded in number and length, flattened."""
    shown: dict[str, Any] = {}
    for key, value in list(raw.items())[:40]:
        name = short(str(key), 60)
        if isinstance(value, str):
            shown[name] = short(value, 2100)
        elif isinstance(value, list):
            shown[name] = [short(str(v), 120) for v in value[: MAX_QUERY_TERMS + 5]]
        elif value is None or isinstance(value, bool | int | float):
            shown[name] = value
        else:
            shown[name] = short(json.dumps(value, default=str), 200)
    return shown
