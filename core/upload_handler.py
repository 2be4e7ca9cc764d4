"""An upload handler that never spools to disk: files stay in memory up to a cap, the rest is counted.

Django's default handlers write any upload over FILE_UPLOAD_MAX_MEMORY_SIZE to a temporary file.
Session sources and registries under review must not touch the disk, so this handler replaces
them: it keeps at most ``limit`` bytes per request in memory, discards anything beyond while
still counting it, and reports the counted size, so an oversize file is refused with its real
size. With ``drop_incomplete`` a file cut short comes back empty and gives its room back.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopFutureHandlers


class CountedUpload(InMemoryUploadedFile):
    """An in-memory upload; ``complete`` is False when bytes past the cap were discarded."""

    complete: bool = True


class MemoryOnlyUploadHandler(FileUploadHandler):
    """Keep uploads in memory, never on disk; cap what is kept per request."""

    def __init__(self, request: Any = None, *, limit: int, drop_incomplete: bool = False):
        super().__init__(request)
        self.limit = limit
        self.drop_incomplete = drop_incomplete
        self.kept_in_request = 0
        self.buffer = BytesIO()
        self.discarded = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.buffer = BytesIO()
        self.discarded = 0
        raise StopFutureHandlers()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        room = max(0, self.limit - self.kept_in_request)
        keep = raw_data[:room]
        if keep:
            self.buffer.write(keep)
            self.kept_in_request += len(keep)
        self.discarded += len(raw_data) - len(keep)
        return None

    def file_complete(self, file_size: int) -> CountedUpload:
        buffer, self.buffer = self.buffer, BytesIO()
        if self.discarded and self.drop_incomplete:
            self.kept_in_request -= buffer.tell()
            buffer = BytesIO()
        buffer.seek(0)
        upload = CountedUpload(
            file=buffer,
            field_name=self.field_name,
            name=self.file_name,
            content_type=self.content_type,
            size=file_size,
            charset=self.charset,
            content_type_extra=self.content_type_extra,
        )
        upload.complete = self.discarded == 0
        return upload
