"""DRF endpoints for session sources: parse input, call one uploads service, return its result."""

from __future__ import annotations

import io
from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ApplicationError
from core.openapi import ErrorSerializer, error_responses
from core.throttling import SharedScopedRateThrottle
from uploads import services
from uploads.limits import LIMITS
from uploads.owner import owner_of
from uploads.rejections import Reason, SourceRefused
from uploads.serializers import FileInputSerializer, PasteInputSerializer

PASTE_BODY_BYTES = LIMITS.paste_chars * 6 + LIMITS.title_chars * 6 + 1024
ALREADY_IN_SESSION = OpenApiResponse(
    response=ErrorSerializer,
    description=(
        "The same content (by SHA-256 of the raw bytes; of a paste's UTF-8 text) is already a "
        "source of this session. Nothing is stored again; fields.session_source_id names the "
        "source that holds it."
    ),
    examples=[
        OpenApiExample(
            "already_in_session",
            value={
                "error": {
                    "code": "already_in_session",
                    "message": "This content is already in the session as session-file-001 "
                    "('Draft PRD.pdf'); it was not added again.",
                    "fields": {"session_source_id": "session-file-001"},
                }
            },
            response_only=True,
        )
    ],
)


class PasteJSONParser(JSONParser):
    """JSON with a byte cap that fits the largest paste (every character escaped) and its title."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = stream.read(PASTE_BODY_BYTES + 1) if stream is not None else b""
        if len(body) > PASTE_BODY_BYTES:
            raise SourceRefused(
                Reason.TOO_LARGE,
                f"The request body is larger than {PASTE_BODY_BYTES:,} bytes; pasted text is "
                f"limited to {LIMITS.paste_chars:,} characters.",
            )
        return super().parse(io.BytesIO(body), media_type, parser_context)


@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")  # session sources are never kept by caches
class SessionSourcesView(APIView):
    """This session's sources: list (GET), add a file or a paste (POST), clear all (DELETE)."""

    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "uploads"
    parser_classes = [PasteJSONParser, MultiPartParser]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **error_responses(401, 403, 429)},
        operation_id="session_sources_list",
    )
    def get(self, request: Request) -> Response:
        view = services.overview(session=request.session, owner=owner_of(request))
        return Response(
            {
                "sources": [r.to_dict() for r in view.records],
                "totals": {
                    "files": view.totals.files,
                    "pastes": view.totals.pastes,
                    "raw_size_bytes": view.totals.raw_bytes,
                    "extracted_character_count": view.totals.chars,
                },
                "limits": view.limits.to_dict(),
            }
        )

    @extend_schema(
        request={
            "multipart/form-data": FileInputSerializer,
            "application/json": PasteInputSerializer,
        },
        responses={
            201: OpenApiTypes.OBJECT,
            **error_responses(400, 401, 403, 413, 415, 429),
            409: ALREADY_IN_SESSION,
        },
        operation_id="session_sources_create",
        description=(
            "Add a file (multipart) or a paste (JSON) as a session source. The 201 body is the "
            "extraction record. A source that does not fit what is left of the session's "
            "120,000 extracted characters is kept in part, on whole pages, rows, sections or "
            'lines: extraction_status "truncated", kept says what was kept ("pages 1-54 of '
            '74") and notices holds "uploaded_source_truncated". A file over its own limits '
            "(size, pages, sections, rows, columns, characters) is refused (413 too_large, the "
            "message names the limit)."
        ),
    )
    def post(self, request: Request) -> Response:
        if (request.content_type or "").startswith("multipart/"):
            if len(request.FILES.getlist("file")) > 1:
                raise ApplicationError(
                    "invalid_request",
                    "Send one file per request.",
                    fields={"file": ["Send one file per request."]},
                )
            upload = FileInputSerializer(data=request.data)
            upload.is_valid(raise_exception=True)
            values: dict[str, Any] = upload.validated_data
            record = services.add_uploaded_file(
                session=request.session,
                owner=owner_of(request),
                upload=values["file"],
                title=values.get("title") or None,
            )
        else:
            paste = PasteInputSerializer(data=request.data)
            paste.is_valid(raise_exception=True)
            values = paste.validated_data
            record = services.add_paste(
                session=request.session,
                owner=owner_of(request),
                title=values["title"],
                text=values["text"],
            )
        return Response(record.to_dict(), status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={204: None, **error_responses(401, 403, 429)},
        operation_id="session_sources_clear",
    )
    def delete(self, request: Request) -> Response:
        services.clear(session=request.session, owner=owner_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")
class SessionSourceDetailView(APIView):
    """Remove one of this session's sources."""

    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "uploads"

    @extend_schema(
        responses={204: None, **error_responses(401, 403, 404, 429)},
        operation_id="session_sources_remove",
    )
    def delete(self, request: Request, source_id: str) -> Response:
        services.remove(session=request.session, owner=owner_of(request), source_id=source_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
