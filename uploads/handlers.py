"""An upload handler that never spools to disk: files stay in memory up to a cap, the rest is counted.

Django's default handlers write any upload over FILE_UPLOAD_MAX_MEMORY_SIZE to a temporary file.
Session sources must not touch the disk, so this handler replaces them (FILE_UPLOAD_HANDLERS):
it keeps at most ``MAX_KEPT_BYTES`` per request in memory, discards anything beyond while still
counting it, and reports the counted size so that an oversize file is refused with its real size.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopFutureHandlers

from uploads.limits import LIMITS

MAX_KEPT_BYTES = LIMITS.largest_file_bytes + 1


class CountedUpload(InMemoryUploadedFile):
    """An in-memory upload; ``complete`` is False when bytes past the cap were discarded."""

    complete: bool = True


class MemoryOnlyUploadHandler(FileUploadHandler):
    """Keep uploads in memory, never on disk; cap what is kept per request."""

    def __init__(self, request: Any = None):
        super().__init__(request)
        self.kept_in_request = 0
        self.buffer = BytesIO()
        self.discarded = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.buffer = BytesIO()
        self.discarded = 0
        raise StopFutureHandlers()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        room = max(0, MAX_KEPT_BYTES - self.kept_in_request)
        keep = raw_data[:room]
        if keep:
            self.buffer.write(keep)
            self.kept_in_request += len(keep)
        self.discarded += len(raw_data) - len(keep)
        return None

    def file_complete(self, file_size: int) -> CountedUpload:
        self.buffer.seek(0)
        upload = CountedUpload(
            file=self.buffer,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )
        upload.complete = self.discarded == 0
        return upload
