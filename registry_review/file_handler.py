"""The registry upload handler: core's memory-only handler, dropping a file over the limit."""

from __future__ import annotations

from django.http import HttpRequest

from core.upload_handler import MemoryOnlyUploadHandler


class BoundedMemoryUploadHandler(MemoryOnlyUploadHandler):
    """Keep at most ``limit`` bytes in memory; a file over it comes back empty with its true size.

    A registry under review must never touch the disk; the form names the size in its refusal
    without the content ever being kept.
    """

    def __init__(self, request: HttpRequest | None = None, *, limit: int) -> None:
        super().__init__(request, limit=limit, drop_incomplete=True)
