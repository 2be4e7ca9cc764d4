"""Plain serializers for the chat API: input parsing only; runs are never persisted."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from assistant.types import Mode


class StrictCharField(serializers.CharField):
    """A CharField that takes only JSON strings; DRF's own turns 0 or 1.5 into "0" or "1.5"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class ChatInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    mode = serializers.ChoiceField(choices=[m.value for m in Mode], default=Mode.PACKAGE_ONLY.value)
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
