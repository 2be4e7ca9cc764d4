"""Plain serializers for the session-source API: input parsing only; nothing here is a model."""

from __future__ import annotations

from rest_framework import serializers

from core.fields import StrictCharField
from uploads.limits import LIMITS


class FileInputSerializer(serializers.Serializer):
    file = serializers.FileField(allow_empty_file=True, use_url=False)
    title = StrictCharField(
        required=False, allow_blank=True, max_length=LIMITS.title_chars, trim_whitespace=True
    )


class PasteInputSerializer(serializers.Serializer):
    title = StrictCharField(
        allow_blank=False, min_length=1, max_length=LIMITS.title_chars, trim_whitespace=True
    )
    # min_length puts ``minLength: 1`` in the schema, so the 400 for an empty text is documented;
    # text of only whitespace passes here and is refused as ``empty`` (also 400) by extraction.
    text = StrictCharField(
        allow_blank=False,
        min_length=1,
        trim_whitespace=False,
        help_text=(
            f"The pasted text, 1 to {LIMITS.paste_chars:,} characters. An empty text is refused "
            "with 400 invalid_request, text of only whitespace with 400 empty."
        ),
    )
