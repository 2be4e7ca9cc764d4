"""The bounded in-memory upload handler: keeps small files, counts but drops oversized ones."""

from __future__ import annotations

from django.core.files.uploadhandler import StopFutureHandlers

from registry_review.file_handler import BoundedMemoryUploadHandler


def _feed(handler: BoundedMemoryUploadHandler, chunks: list[bytes]):
    try:
        handler.new_file("registry_file", "r.json", "application/json", None)
    except StopFutureHandlers:
        pass
    else:
        raise AssertionError("the handler must stop Django's disk-spooling handlers")
    start = 0
    for chunk in chunks:
        assert handler.receive_data_chunk(chunk, start) is None
        start += len(chunk)
    return handler.file_complete(start)


def test_a_file_within_the_limit_is_kept_in_memory() -> None:
    upload = _feed(BoundedMemoryUploadHandler(limit=10), [b"12345", b"67890"])
    assert upload.read() == b"1234567890" and upload.size == 10 and upload.name == "r.json"


def test_a_file_over_the_limit_is_counted_but_not_kept() -> None:
    upload = _feed(BoundedMemoryUploadHandler(limit=10), [b"12345", b"67890", b"X"])
    assert upload.size == 11
    assert upload.read() == b""


def test_each_file_starts_empty() -> None:
    handler = BoundedMemoryUploadHandler(limit=10)
    _feed(handler, [b"x" * 11])
    assert _feed(handler, [b"ok"]).read() == b"ok"
