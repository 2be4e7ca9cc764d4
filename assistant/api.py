"""DRF endpoints: parse input, call the one service, return its result."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from aicd.openapi import documented
from aicd.throttling import SharedScopedRateThrottle
from assistant import api_schema, services
from assistant.modes import Mode
from assistant.serializers import ChatInputSerializer
from uploads import services as uploads


@method_decorator(login_not_required, name="dispatch")
class SourceGroundedChatView(APIView):
    """POST a question; get an answered, refused or diagnostic run (always 200 when handled)."""

    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "chat"

    @documented(lambda: {
        "request": ChatInputSerializer,
        "responses": api_schema.CHAT_RESPONSES,
        "examples": api_schema.CHAT_REQUEST_EXAMPLES,
    })
    def post(self, request: Request) -> Response:
        data = ChatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = data.validated_data
        sources = uploads.resolve(
            session=request.session, owner=str(request.user.pk), ids=values["session_source_ids"]
        )
        run = services.answer(
            question=values["question"], mode=Mode(values["mode"]), session_sources=sources
        )
        return Response(run.to_dict())


@method_decorator(login_not_required, name="dispatch")
class HealthView(APIView):
    """GET: ``{"status": "ok"}`` for an authenticated caller; the framework's floor in `make bench`.

    It touches nothing but authentication, so it reveals nothing and costs what DRF costs.
    """

    @documented(lambda: {"responses": {200: OpenApiTypes.OBJECT}})
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})
