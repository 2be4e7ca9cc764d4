"""Why an upload or paste is refused: one reason class per cause, each with its HTTP status."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from rest_framework import status

from core.errors import ApplicationError


class Reason(StrEnum):
    """Refusal reason classes; the values are the API's error codes."""

    EMPTY = "empty"
    MALFORMED = "malformed"
    ENCRYPTED = "encrypted"
    IMAGE_ONLY = "image_only"
    LOW_CONFIDENCE = "low_confidence"
    UNSAFE_CONTENT = "unsafe_content"
    TOO_LARGE = "too_large"
    TOO_DEEP = "too_deep"
    DECOMPRESSION_BOMB = "decompression_bomb"
    SESSION_LIMIT = "session_limit"
    UNSUPPORTED_TYPE = "unsupported_type"
    TYPE_MISMATCH = "type_mismatch"
    EXECUTABLE = "executable"
    ARCHIVE = "archive"
    MACRO_ENABLED = "macro_enabled"
    STRICT_OPEN_XML = "strict_open_xml"
    UNSUPPORTED_PDF_FILTER = "unsupported_pdf_filter"
    ALREADY_IN_SESSION = "already_in_session"


HTTP_STATUS: dict[Reason, int] = {
    Reason.EMPTY: status.HTTP_400_BAD_REQUEST,
    Reason.MALFORMED: status.HTTP_400_BAD_REQUEST,
    Reason.ENCRYPTED: status.HTTP_400_BAD_REQUEST,
    Reason.IMAGE_ONLY: status.HTTP_400_BAD_REQUEST,
    Reason.LOW_CONFIDENCE: status.HTTP_400_BAD_REQUEST,
    Reason.UNSAFE_CONTENT: status.HTTP_400_BAD_REQUEST,
    Reason.TOO_LARGE: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    Reason.TOO_DEEP: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    Reason.DECOMPRESSION_BOMB: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    Reason.SESSION_LIMIT: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    Reason.UNSUPPORTED_TYPE: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.TYPE_MISMATCH: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.EXECUTABLE: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.ARCHIVE: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.MACRO_ENABLED: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.STRICT_OPEN_XML: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.UNSUPPORTED_PDF_FILTER: status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
    Reason.ALREADY_IN_SESSION: status.HTTP_409_CONFLICT,
}


class SourceRefused(ApplicationError):
    """An upload or paste that is refused before anything is kept; the code is its reason class."""

    def __init__(self, reason: Reason, message: str, *, fields: dict[str, Any] | None = None):
        self.reason = reason
        super().__init__(reason.value, message, status_code=HTTP_STATUS[reason], fields=fields)


def refuse(reason: Reason, message: str, *, fields: dict[str, Any] | None = None) -> SourceRefused:
    """The refusal to raise: ``raise refuse(Reason.TOO_LARGE, "...")``."""
    return SourceRefused(reason, message, fields=fields)
