"""A record's plain fields: each required string, the id's spelling, the trust label, unknown keys."""

from __future__ import annotations

from typing import Any

from core.issues import Issue
from registry_review.record_schema import (
    CONTROL_RE,
    FIELD_MAX_CHARS,
    ID_RE,
    OPTIONAL_FIELDS,
    REQUIRED_FIELDS,
    TRUST_LABELS,
    short,
)


def required_strings(raw: dict[str, Any], errors: list[Issue]) -> dict[str, str]:
    """Every required field that holds a usable string, stripped; an error for each that does not."""
    values: dict[str, str] = {}
    for name in REQUIRED_FIELDS:
        value = _required_string(raw, name, errors)
        if value is not None:
            values[name] = value
    return values


def unknown_fields(raw: dict[str, Any]) -> list[Issue]:
    return [
        Issue(
            str(key),
            "unknown_field",
            f"Field {short(str(key), 40)!r} is not part of a source record and is ignored.",
        )
        for key in raw
        if key not in REQUIRED_FIELDS and key not in OPTIONAL_FIELDS
    ]


def check_id_and_trust(values: dict[str, str], errors: list[Issue]) -> None:
    """The id's spelling; the trust label, lower-cased in ``values``, from the known list."""
    record_id = values.get("id")
    if record_id is not None and not ID_RE.match(record_id):
        errors.append(
            Issue(
                "id",
                "bad_id",
                f"id {short(record_id)!r} must be lower-case letters, digits, '.', '_' or '-' (start and end with a letter or digit).",
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
                    f"trust_label {short(trust)!r} is not a known label; use one of: {', '.join(TRUST_LABELS)}.",
                )
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
        errors.append(
            Issue(name, "too_long", f"{name} is {len(value)} characters; the limit is {limit}.")
        )
        return None
    if CONTROL_RE.search(value):
        errors.append(
            Issue(
                name,
                "control_characters",
                f"{name} contains control characters or line breaks; remove them.",
            )
        )
        return None
    return value
