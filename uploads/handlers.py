"""The session-source upload handler: core's memory-only handler, capped at the largest file.

FILE_UPLOAD_HANDLERS names this class (uploads/apps.py checks it), so Django never spools a
session source to a temporary file. An upload cut short at the cap is refused by its real size.
"""

from __future__ import annotations

from typing import Any

from django.core.files.uploadhandler import StopFutureHandlers

from core.upload_handler import MemoryOnlyUploadHandler as _MemoryOnly
from uploads.limits import LIMITS

__all__ = ["MAX_KEPT_BYTES", "MemoryOnlyUploadHandler", "StopFutureHandlers"]

MAX_KEPT_BYTES = LIMITS.largest_file_bytes + 1


class MemoryOnlyUploadHandler(_MemoryOnly):
    """Keep at most ``MAX_KEPT_BYTES`` per request in memory; count, but drop, the rest."""

    def __init__(self, request: Any = None):
        super().__init__(request, limit=MAX_KEPT_BYTES)
