"""The chat input serializer's cheap field copies validate exactly as DRF's own deep copies do."""

from __future__ import annotations

from hypothesis import given, settings
from rest_framework import serializers

from assistant.serializers import ChatInputSerializer

from .test_api_fuzz import chat_bodies, json_values


class DeepCopyingChatInputSerializer(ChatInputSerializer):
    """DRF's default: a deep copy of the declared fields for every instance."""

    def get_fields(self):  # type: ignore[no-untyped-def]
        return serializers.Serializer.get_fields(self)


@settings(max_examples=400, deadline=None)
@given(body=chat_bodies | json_values)
def test_validation_matches_drfs_deep_copied_fields(body) -> None:
    cheap, reference = ChatInputSerializer(data=body), DeepCopyingChatInputSerializer(data=body)
    assert cheap.is_valid() == reference.is_valid()
    assert cheap.errors == reference.errors
    if not reference.errors:
        assert cheap.validated_data == reference.validated_data


def test_each_instance_binds_its_own_fields() -> None:
    first = ChatInputSerializer(data={"question": "who owns each stage gate?"})
    second = ChatInputSerializer(data={"question": 5})
    assert first.is_valid() and not second.is_valid()
    for name in ("mode", "question", "session_source_ids"):
        assert first.fields[name] is not second.fields[name]
        assert first.fields[name].parent is first and second.fields[name].parent is second
        assert first.fields[name].field_name == name
    assert first.validated_data["question"] == "who owns each stage gate?"
    assert set(second.errors) == {"question"}
