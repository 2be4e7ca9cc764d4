"""Plain serializers for the chat API: input parsing only; runs are never persisted."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from django.conf import settings
from rest_framework import serializers

from assistant.modes import Mode
from core.fields import StrictCharField


class ChatInputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    mode = serializers.ChoiceField(choices=[m.value for m in Mode], default=Mode.PACKAGE_ONLY.value)
    question = StrictCharField(trim_whitespace=True, allow_blank=False)
    session_source_ids = serializers.ListField(
        child=StrictCharField(max_length=64), required=False, default=list, max_length=6
    )

    def get_fields(self) -> dict[str, serializers.Field]:  # type: ignore[type-arg]
        """The declared fields, as shallow copies of one deep copy made once per process.

        DRF deep-copies every declared field for each serializer instance, so that each
        instance binds its own; for this small body on the busiest endpoint that copy cost
        more than the validation itself. Validation never changes a field, so a shallow copy
        of an unbound prototype is as good: each instance still binds its own copies.
        """
        return {name: copy.copy(field) for name, field in _prototype_fields().items()}

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


@cache
def _prototype_fields() -> dict[str, serializers.Field]:  # type: ignore[type-arg]
    """One unbound deep copy of the chat input's declared fields, for this process."""
    return copy.deepcopy(ChatInputSerializer._declared_fields)  # type: ignore[attr-defined]
