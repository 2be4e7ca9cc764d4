"""OpenAPI descriptions of the error body every API returns (see core/errors.py)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):  # type: ignore[type-arg]  # no instance type
    code = serializers.CharField(
        help_text="A stable machine-readable reason, e.g. invalid_request."
    )
    message = serializers.CharField(help_text="A readable explanation.")
    fields = serializers.DictField(  # type: ignore[assignment]  # a JSON key, not Serializer.fields
        required=False,
        child=serializers.JSONField(),
        help_text="Per-field messages, for invalid input.",
    )


class ErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]  # no instance type
    error = ErrorDetailSerializer()


def _error(description: str, code: str, message: str) -> OpenApiResponse:
    return OpenApiResponse(
        response=ErrorSerializer,
        description=description,
        examples=[
            OpenApiExample(
                code, value={"error": {"code": code, "message": message}}, response_only=True
            )
        ],
    )


ERROR_RESPONSES = {
    400: OpenApiResponse(
        response=ErrorSerializer,
        description="Malformed JSON or invalid fields.",
        examples=[
            OpenApiExample(
                "invalid_request",
                value={
                    "error": {
                        "code": "invalid_request",
                        "message": "question: This field is required.",
                        "fields": {"question": ["This field is required."]},
                    }
                },
                response_only=True,
            )
        ],
    ),
    401: _error(
        "No credentials.", "not_authenticated", "Authentication credentials were not provided."
    ),
    403: _error(
        "Credentials rejected, a missing permission, or a session request without a CSRF token.",
        "permission_denied",
        "You do not have permission to perform this action.",
    ),
    404: _error(
        "No such resource in this session.",
        "not_found",
        "No session source with that id exists in this session.",
    ),
    413: _error(
        "The body is larger than the server accepts.",
        "request_too_large",
        "The request body is larger than the 2621440-byte limit.",
    ),
    415: _error(
        "The body is not JSON.",
        "unsupported_media_type",
        'Unsupported media type "text/plain" in request.',
    ),
    429: _error(
        "Per-user rate limit; see Retry-After.",
        "throttled",
        "Too many requests. Retry in 42 seconds.",
    ),
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The documented CONTRACT error responses for ``statuses``, for any endpoint's extend_schema."""
    return {code: ERROR_RESPONSES[code] for code in statuses}
