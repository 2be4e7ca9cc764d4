"""The memory-only upload handler: nothing on disk, a per-request cap, real sizes counted."""

from __future__ import annotations

import pytest
from django.core.checks import run_checks

from uploads import handlers
from uploads.apps import check_session_only_storage


def _receive(handler: handlers.MemoryOnlyUploadHandler, name: str, chunks: list[bytes]):
    with pytest.raises(handlers.StopFutureHandlers):
        handler.new_file("file", name, "application/octet-stream", None)
    position = 0
    for chunk in chunks:
        assert handler.receive_data_chunk(chunk, position) is None  # no later handler sees data
        position += len(chunk)
    return handler.file_complete(position)


def test_small_file_is_kept_whole_in_memory(monkeypatch) -> None:
    monkeypatch.setattr(handlers, "MAX_KEPT_BYTES", 10)
    upload = _receive(handlers.MemoryOnlyUploadHandler(), "a.txt", [b"hello", b"!"])
    assert upload.read() == b"hello!" and upload.size == 6 and upload.complete


def test_bytes_past_the_cap_are_counted_not_kept_across_the_whole_request(monkeypatch) -> None:
    monkeypatch.setattr(handlers, "MAX_KEPT_BYTES", 10)
    handler = handlers.MemoryOnlyUploadHandler()
    first = _receive(handler, "a.txt", [b"12345678"])
    second = _receive(handler, "b.txt", [b"abcdef", b"ghij"])
    assert first.complete and first.read() == b"12345678"
    assert not second.complete and second.size == 10 and second.read() == b"ab"


def test_settings_pass_the_session_only_storage_check() -> None:
    assert check_session_only_storage() == []
    assert not [m for m in run_checks() if m.id and m.id.startswith("uploads.")]


def test_database_sessions_or_disk_spooling_fail_the_check(settings) -> None:
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    settings.FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.TemporaryFileUploadHandler"]
    assert [m.id for m in check_session_only_storage()] == ["uploads.E001", "uploads.E002"]
