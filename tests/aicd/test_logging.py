"""Log hygiene: each line once, no library DEBUG at the default level, an expected 403 as one
line without a traceback, and never a question or upload's content at any level."""

from __future__ import annotations

import logging
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from bench.servers import REPO, app_env

# Run in a fresh interpreter with the real settings: Django configures logging at setup.
_EMIT = """
import logging, django
django.setup()
import bm25s  # sets its own logger to DEBUG when imported
logging.getLogger("django.request").warning("marker-request-line")
logging.getLogger("django.server").info("marker-server-line")
logging.getLogger("bm25s").debug("marker-library-debug")
logging.getLogger("assistant").info("marker-app-line")
"""


def _stderr_of(tmp_path: Path, code: str, **env: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=app_env(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return proc.stderr


@pytest.mark.parametrize("debug", ["true", "false"])
def test_each_line_is_printed_once_and_library_debug_not_at_all(tmp_path, debug):
    # DJANGO_DEBUG on is `make run`'s development server: Django's own console handler then
    # printed every django.* line a second time.
    stderr = _stderr_of(tmp_path, _EMIT, AICD_ENVIRONMENT="development", DJANGO_DEBUG=debug)
    assert stderr.count("marker-request-line") == 1, stderr
    assert stderr.count("marker-server-line") == 1, stderr
    assert stderr.count("marker-app-line") == 1, stderr
    assert "marker-library-debug" not in stderr


def test_debug_is_there_when_asked_for(tmp_path):
    stderr = _stderr_of(tmp_path, _EMIT, AICD_LOG_LEVEL="debug")
    assert "DEBUG bm25s marker-library-debug" in stderr


def test_the_pack_build_prints_no_debug_line(tmp_path):
    env = app_env(tmp_path)
    proc = subprocess.run(
        [sys.executable, "manage.py", "build_context_pack"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "DEBUG" not in proc.stderr + proc.stdout  # it once printed "DEBUG bm25s Building index"


@pytest.mark.django_db
def test_an_expected_403_is_one_warning_line_without_a_traceback(logged_in_client, caplog):
    with caplog.at_level(logging.INFO):
        response = logged_in_client.get("/registry-review/")
    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert [(r.levelname, r.getMessage()) for r in records] == [
        ("WARNING", "Forbidden: /registry-review/")
    ]
    assert records[0].exc_info is None and not records[0].exc_text


# --------------------------------------------------------------- nothing private at any level
@pytest.fixture
def everything_logged(caplog) -> Iterator[pytest.LogCaptureFixture]:
    """Every logger at DEBUG, whatever its configured level, captured for the test."""
    manager = logging.root.manager
    loggers = [logging.root] + [
        logger for logger in manager.loggerDict.values() if isinstance(logger, logging.Logger)
    ]
    saved = [(logger, logger.level, logger.disabled) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        logger.disabled = False
    caplog.set_level(logging.DEBUG)
    try:
        yield caplog
    finally:
        for logger, level, disabled in saved:
            logger.setLevel(level)
            logger.disabled = disabled


def _logged_text(records: list[logging.LogRecord]) -> str:
    parts = []
    for record in records:
        parts.append(record.getMessage())
        parts.append(repr(record.args))
        parts.append(record.exc_text or "")
        parts.append(repr({k: v for k, v in vars(record).items() if k not in ("msg", "args")}))
    return "\n".join(parts)


@pytest.mark.django_db
def test_a_full_run_never_logs_question_or_upload_content(reviewer, everything_logged):
    marker = f"zq{uuid.uuid4().hex}"
    client = Client()
    client.force_login(reviewer)
    paste = client.post(
        "/api/session-sources",
        {"title": f"Notes {marker}", "text": f"The stage gate owner is Dana. {marker} applies."},
        content_type="application/json",
    )
    upload = client.post(
        "/api/session-sources",
        {"file": SimpleUploadedFile(f"{marker}.txt", f"Gate review notes {marker}.".encode())},
    )
    assert (paste.status_code, upload.status_code) == (201, 201)
    ids = [paste.json()["session_source_id"], upload.json()["session_source_id"]]
    asked = [
        client.post(
            "/api/source-grounded-chat",
            {"question": f"Who owns each stage gate {marker}?", "session_source_ids": ids},
            content_type="application/json",
        ),
        client.post(
            "/api/source-grounded-chat",
            {"question": f"Approve my release today {marker}"},
            content_type="application/json",
        ),
        client.post(
            "/",
            {"mode": "package_only", "question": f"What is a stage gate {marker}?"},
            follow=True,
        ),
        client.post("/session-sources/add", {"title": "More", "text": f"Extra {marker} text."}),
        client.post(
            "/api/source-grounded-chat", {"question": marker * 400}, content_type="application/json"
        ),
    ]
    assert [r.status_code for r in asked] == [200, 200, 200, 302, 400]
    records = everything_logged.records
    assert records, "nothing was captured: the capture itself is broken"
    assert marker not in _logged_text(records)
    assert marker not in everything_logged.text
