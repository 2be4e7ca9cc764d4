"""Plain serializers for the session-source API: input parsing only; nothing here is a model."""

from __future__ import annotations

from rest_framework import serializers

from core.fields import StrictCharField
from uploads.limits import LIMITS


class FileInputSerializer(serializers.Serializer):
    file = serializers.FileField(allow_empty_file=True, use_url=False)
    title = serializers.CharField(
        required=False, allow_blank=True, max_length=LIMITS.title_chars, trim_whitespace=True
    )


class PasteInputSerializer(serializers.Serializer):
    title = StrictCharField(allow_blank=False, max_length=LIMITS.title_chars, trim_whitespace=True)
    text = StrictCharField(allow_blank=False, trim_whitespace=False)
