"""Nothing submitted for review is kept: no row, cache entry, session entry, file, log line or socket."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from tests.registry_review.conftest import CANARY, no_files_written

PAGE = "/registry-review/"
API = "/api/registry/validate"


def _database_dump() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, so a value written anywhere shows up."""
    dump = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608 - table names from introspection
            dump[table] = cursor.fetchall()
    return dump


def _cache_contents() -> dict[str, bytes]:
    """The local-memory cache's raw (pickled) entries, sessions included (cache session backend)."""
    return dict(cache._cache)  # type: ignore[attr-defined]


def _page_paste(owner_client, text: str):
    return owner_client.post(PAGE, {"registry_json": text})


def _page_upload(owner_client, text: str):
    return owner_client.post(
        PAGE, {"registry_file": SimpleUploadedFile("candidate.json", text.encode())}
    )


def _api_post(owner_client, text: str):
    return owner_client.post(API, text, content_type="application/json")


def _api_malformed(owner_client, text: str):
    return owner_client.post(API, text[:-3], content_type="application/json")


def _page_oversized(owner_client, text: str):
    return owner_client.post(
        PAGE, {"registry_file": SimpleUploadedFile("big.json", text.encode() + b" " * 300_000)}
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("send", "echoes"),
    [
        (_page_paste, True),
        (_page_upload, True),
        (_api_post, True),
        (_api_malformed, False),
        (_page_oversized, False),
    ],
    ids=["page-paste", "page-upload", "api-post", "api-malformed", "page-oversized-upload"],
)
def test_a_submission_leaves_no_trace(
    send: Callable[..., Any],
    echoes: bool,
    owner_client,
    unsafe_text,
    settings,
    tmp_path,
    monkeypatch,
    caplog,
    no_network,
) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "uploads")
    (tmp_path / "uploads").mkdir()
    # Far below the candidate's size: Django's default handlers would spool it to a temp file.
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024
    owner_client.get(PAGE)  # session and CSRF cookie exist before the submission
    session_before = dict(owner_client.session.items())
    rows_before = _database_dump()
    cache_before = _cache_contents()
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="django")

    with CaptureQueriesContext(connection) as queries, no_files_written(monkeypatch):
        response = send(owner_client, unsafe_text)

    assert response.status_code in (200, 400, 413)
    # The submission was processed (or refused) in this response, and nowhere else.
    assert (CANARY in response.content.decode()) is echoes
    assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries.captured_queries), (
        queries.captured_queries
    )
    assert not any(CANARY in q["sql"] for q in queries.captured_queries)
    rows_after = _database_dump()
    assert rows_after == rows_before
    assert CANARY not in repr(rows_after)
    cache_after = _cache_contents()
    assert set(cache_after) == set(cache_before)
    assert not any(CANARY.encode() in value or CANARY in key for key, value in cache_after.items())
    assert dict(owner_client.session.items()) == session_before
    logged = caplog.text + "".join(repr(r.args) for r in caplog.records)
    assert CANARY not in logged and "nist-ai-rmf" not in logged
    assert not (tmp_path / "media").exists()
    assert list((tmp_path / "uploads").iterdir()) == []


@pytest.mark.django_db
def test_the_command_leaves_no_trace(monkeypatch, unsafe_text, caplog, no_network) -> None:
    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BytesIO(unsafe_text.encode()), encoding="utf-8")
    )
    rows_before = _database_dump()
    caplog.set_level(logging.DEBUG)
    out = StringIO()
    with (
        CaptureQueriesContext(connection) as queries,
        no_files_written(monkeypatch),
        pytest.raises(CommandError),
    ):
        call_command("validate_registry", "-", stdout=out)
    assert CANARY in out.getvalue()  # the valid record's title is in the normalised output
    assert queries.captured_queries == []
    assert _database_dump() == rows_before
    assert CANARY not in caplog.text


# ------------------------------------------------------------ the doubles above can fail
@pytest.mark.django_db
def test_the_file_guard_catches_djangos_default_upload_spooling(
    monkeypatch, settings, tmp_path
) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024
    settings.FILE_UPLOAD_HANDLERS = [  # Django's defaults, which spool large uploads to disk
        "django.core.files.uploadhandler.MemoryFileUploadHandler",
        "django.core.files.uploadhandler.TemporaryFileUploadHandler",
    ]
    request = RequestFactory().post("/", {"f": SimpleUploadedFile("a.json", b"x" * 4096)})
    with (
        pytest.raises(pytest.fail.Exception, match="temporary file|for writing"),
        no_files_written(monkeypatch),
    ):
        request.FILES  # noqa: B018 - parsing the body is the point


def test_the_network_guard_catches_a_dns_lookup(no_network) -> None:
    import socket

    with pytest.raises(pytest.fail.Exception, match="network access"):
        socket.getaddrinfo("www.nist.gov", 443)


@pytest.mark.django_db
def test_the_database_and_cache_scans_see_a_stored_value() -> None:
    Group.objects.create(name=CANARY)
    cache.set("probe", {"v": CANARY})
    assert CANARY in repr(_database_dump())
    assert any(CANARY.encode() in value for value in _cache_contents().values())
    cache.delete("probe")
