"""One error type for expected failures and the DRF handler that renders the contract's error body.

The body, ``{"error": {"code", "message", "fields"?}}``, is specified in docs/api.md.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class NotReady(RuntimeError):
    """Something this worker loads (a model, the context pack) is not built: an operator's fix.

    The message names what is missing and the command that builds it; it goes to the log only.
    A person or client is told that the service is not ready (503), nothing more.
    """


NOT_READY_MESSAGE = "The assistant is not ready: an operator must build what it loads."


class ApplicationError(Exception):
    """An expected, user-facing failure: a stable code, a readable message, an HTTP status."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status_code: int = status.HTTP_400_BAD_REQUEST,
        fields: dict[str, Any] | None = None,
    ):
        self.code = code
        self.message = message
        self.status_code = status_code
        self.fields = fields or {}
        super().__init__(message)


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return {"error": body}


def _flatten(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {k: _flatten(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_flatten(v) for v in detail]
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render every API error as ``{"error": {"code", "message", "fields"?}}``."""
    if isinstance(exc, NotReady):
        logger.error("Not ready: %s", exc)
        return Response(error_body("not_ready", NOT_READY_MESSAGE), status=503)
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.code, exc.message, exc.fields), status=exc.status_code)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body(
                "request_too_large", f"The request body is larger than the {limit}-byte limit."
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = (
            _flatten(exc.detail)
            if isinstance(exc.detail, dict)
            else {"non_field_errors": _flatten(exc.detail)}
        )
        first = next(iter(fields.items()), None) if isinstance(fields, dict) else None
        message = "The request is invalid."
        if first:
            value = first[1][0] if isinstance(first[1], list) and first[1] else first[1]
            message = f"{first[0]}: {value}"
        response.data = error_body("invalid_request", message, fields)
    elif isinstance(exc, exceptions.ParseError):
        response.data = error_body("malformed_json", "The request body is not valid JSON.")
    elif isinstance(exc, exceptions.Throttled):
        wait = getattr(exc, "wait", None)
        wait = int(wait) if wait is not None else None
        response.data = error_body(
            "throttled",
            "Too many requests." + (f" Retry in {wait} seconds." if wait is not None else ""),
        )
    else:
        code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        code = code if isinstance(code, str) else "error"
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        response.data = error_body(code, str(detail))
    return response
