"""Strict serializer fields shared by every API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A CharField that takes only JSON strings; DRF's own turns 0 or 1.5 into "0" or "1.5".

    ``max_length`` holds for the value as sent, as the schema's ``maxLength`` says: DRF checks it
    after trimming whitespace, so a value one space too long would pass.
    """

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return str(super().to_internal_value(data))
