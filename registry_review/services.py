"""Owner review of a registry: decode a submission within limits and validate it, storing nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.conf import settings
from rest_framework import status

from core.errors import ApplicationError
from core.sizes import human_bytes
from registry_review.configured import configured_registry_report
from registry_review.records import RegistryReport
from registry_review.validation import MAX_REGISTRY_BYTES, validate_registry_text

#: The largest request body read at all (the registry limit is MAX_REGISTRY_BYTES, checked
#: before anything is parsed): a form-encoded paste can triple in size on the wire.
MAX_REQUEST_BYTES = 3 * MAX_REGISTRY_BYTES + 16 * 1024

CONFIGURED = "configured"
SUBMITTED = "submitted"


@dataclass(frozen=True)
class Review:
    """One registry report, where the registry came from, and the valid records ready to copy."""

    origin: str
    report: RegistryReport
    normalised_json: str


def too_large(size: int, *, what: str = "The registry") -> ApplicationError:
    """The refusal for a submission over the limit, naming both sizes."""
    return ApplicationError(
        "registry_too_large",
        f"{what} is {size:,} bytes; the limit is {human_bytes(MAX_REGISTRY_BYTES)} "
        f"({MAX_REGISTRY_BYTES} bytes). Split the registry or remove records.",
        status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    )


def decode_submission(data: bytes) -> str:
    """Check the size, then decode UTF-8 (a leading byte-order mark is allowed); never parse here."""
    if len(data) > MAX_REGISTRY_BYTES:
        raise too_large(len(data))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ApplicationError(
            "registry_not_utf8",
            f"The registry is not UTF-8 text (undecodable byte at offset {exc.start}). "
            "Save the file as UTF-8 JSON and submit it again.",
        ) from exc


def _normalised_json(report: RegistryReport) -> str:
    """The valid records as one compact JSON value, ready for the registry environment variable."""
    sources = [record.to_dict() for record in report.valid_records]
    return json.dumps({"sources": sources}, ensure_ascii=False, separators=(",", ":"))


def review_configured() -> Review:
    """Report on the registry this server is configured with (the environment variable)."""
    report = configured_registry_report()
    return Review(origin=CONFIGURED, report=report, normalised_json=_normalised_json(report))


def review_text(*, text: str, production: bool | None = None) -> Review:
    """Report on a submitted registry text; ``production`` defaults to this server's environment."""
    if len(text.encode("utf-8")) > MAX_REGISTRY_BYTES:
        raise too_large(len(text.encode("utf-8")))
    report = validate_registry_text(
        text, production=settings.PRODUCTION if production is None else production
    )
    return Review(origin=SUBMITTED, report=report, normalised_json=_normalised_json(report))
