"""Strict serializer fields shared by every API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A CharField that takes only JSON strings; DRF's own turns 0 or 1.5 into "0" or "1.5"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))
