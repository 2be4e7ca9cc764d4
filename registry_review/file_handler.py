"""An upload handler that keeps a registry file in memory, bounded, and never spools it to disk."""

from __future__ import annotations

import io
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopFutureHandlers
from django.http import HttpRequest


class BoundedMemoryUploadHandler(FileUploadHandler):
    """Keep at most ``limit`` bytes of each file in memory; count, but drop, everything beyond.

    Django's default handlers write any upload above FILE_UPLOAD_MAX_MEMORY_SIZE to a temporary
    file. A registry under review must never touch the disk, so this handler replaces them for the
    owner-review page. An over-limit file comes back empty with its true ``size``, so the form can
    name the size in its refusal without the content ever being kept.
    """

    def __init__(self, request: HttpRequest | None = None, *, limit: int) -> None:
        super().__init__(request)
        self.limit = limit
        self._buffer = io.BytesIO()
        self._over_limit = False

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self._buffer = io.BytesIO()
        self._over_limit = False
        raise StopFutureHandlers()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        if not self._over_limit:
            if self._buffer.tell() + len(raw_data) > self.limit:
                self._over_limit = True
                self._buffer = io.BytesIO()
            else:
                self._buffer.write(raw_data)
        return None

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        buffer, self._buffer = self._buffer, io.BytesIO()
        buffer.seek(0)
        return InMemoryUploadedFile(
            file=buffer,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )
