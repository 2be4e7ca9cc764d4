"""DRF endpoint: the configured registry's report (GET) or a submitted registry's (POST)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import BaseParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ApplicationError
from core.openapi import error_responses
from core.throttling import SharedScopedRateThrottle
from registry_review import services
from registry_review.permissions import CanReviewRegistry

ACCEPTED_CONTENT_TYPES = ("application/json", "text/plain")


def _guard_body(request: Request) -> None:
    """Refuse a POST body by its headers alone, before authentication or anything else reads it."""
    content_type = (request.content_type or "").split(";")[0].strip().lower()
    if content_type not in ACCEPTED_CONTENT_TYPES:
        raise ApplicationError(
            "unsupported_media_type",
            "Send the registry itself as the request body with Content-Type: application/json.",
            status_code=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
        )
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise ApplicationError(
            "invalid_request", "The Content-Length header is not a number."
        ) from None
    if declared > services.MAX_REGISTRY_BYTES:
        raise services.too_large(declared)


class RawBodyParser(BaseParser):
    """The body's bytes, unparsed, for every accepted type (``_guard_body`` vets the type first).

    Session authentication's CSRF check reads ``request.POST``, which makes DRF parse the body
    with the view's parsers. With the JSON parser a BOM-prefixed or malformed registry became a
    bare parse error and ``text/plain`` a 415 for session callers only, while token callers got
    the validator's report. With this parser both kinds of caller reach the same validator.
    """

    media_type = "*/*"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return stream.read() if stream is not None else b""


@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")
class RegistryValidateView(APIView):
    """Validate a current-source registry, record by record; nothing submitted is stored."""

    permission_classes = [IsAuthenticated, CanReviewRegistry]
    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "registry"
    parser_classes = [RawBodyParser]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Session authentication's CSRF check would parse a form or multipart body (and Django
        # may spool a large upload to disk), so the body is vetted by its headers first.
        if request.method == "POST":
            _guard_body(request)
            # Read (and keep) the raw body now, before anything parses it; the view reads it.
            request.body  # noqa: B018
        super().initial(request, *args, **kwargs)

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **error_responses(401, 403, 429)})
    def get(self, request: Request) -> Response:
        return Response(services.review_configured().report.to_dict())

    @extend_schema(
        request={"application/json": OpenApiTypes.ANY},
        responses={200: OpenApiTypes.OBJECT, **error_responses(400, 401, 403, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        # The raw body, not request.data: malformed JSON gets a document-level report with its
        # line and column instead of a bare parse error.
        text = services.decode_submission(request.body)
        return Response(services.review_text(text=text).report.to_dict())
