"""DRF endpoints: parse input, call the one service, return its result."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant.domain.modes import Mode
from assistant.pipeline import services
from assistant.web import api_schema
from core.fields import StrictCharField
from core.throttling import SharedScopedRateThrottle
from uploads import services as uploads
from uploads.owner import owner_of


@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")  # answers are never kept, by caches either
class SourceGroundedChatView(APIView):
    """POST a question; get an answered, refused or diagnostic run (always 200 when handled)."""

    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "chat"

    @extend_schema_serializer(component_name="ChatInput")
    class InputSerializer(serializers.Serializer):
        mode = serializers.ChoiceField(
            choices=[m.value for m in Mode], default=Mode.PACKAGE_ONLY.value
        )
        question = StrictCharField(trim_whitespace=True, allow_blank=False)
        session_source_ids = serializers.ListField(
            child=StrictCharField(max_length=64), required=False, default=list, max_length=6
        )

        def validate_question(self, value: str) -> str:
            limit = settings.AICD_MAX_QUESTION_CHARS
            if len(value) > limit:
                raise serializers.ValidationError(
                    f"Ensure the question has no more than {limit} characters (it has {len(value)})."
                )
            if "\x00" in value:
                raise serializers.ValidationError("The question contains a NUL character.")
            return value

        def to_internal_value(self, data: Any) -> Any:
            if not isinstance(data, dict):
                raise serializers.ValidationError(
                    {"non_field_errors": ["Expected a JSON object with a 'question' field."]}
                )
            return super().to_internal_value(data)

    @extend_schema(
        request=InputSerializer,
        responses=api_schema.CHAT_RESPONSES,
        examples=api_schema.CHAT_REQUEST_EXAMPLES,
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = data.validated_data
        sources = uploads.resolve(
            session=request.session, owner=owner_of(request), ids=values["session_source_ids"]
        )
        run = services.answer(
            question=values["question"], mode=Mode(values["mode"]), session_sources=sources
        )
        return Response(run.to_dict())
