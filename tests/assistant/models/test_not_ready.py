"""The worker loads models and never trains: an empty model directory is a fast, named 'not ready'.

Each test points ``AICD_MODEL_DIR`` (or the context pack) at an empty directory and checks what
an operator and a reviewer see: ``/api/ready`` 503 at once, a chat that ends as a diagnostic
without calling the provider, a reader page in the site frame with 503, and the system check
naming the command. A separate process that answers a question with the built models must not
have imported any module of the learning side.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.checks import run_checks
from django.test import override_settings
from rest_framework.test import APIClient

from assistant.compose import unit_ranking
from assistant.pipeline import services
from assistant.retrieval import context_pack, question_memory, ranking
from assistant.review import criterion_evidence
from assistant.screening import artifact
from bench.servers import REPO
from tests.conftest import ExplodingProvider


def _forget_models() -> None:
    artifact.reset_cache()
    ranking.model.cache_clear()
    question_memory.for_index.cache_clear()
    unit_ranking.SHIPPED.reload()
    criterion_evidence.SHIPPED.reload()


@pytest.fixture
def no_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    empty = tmp_path / "models"
    empty.mkdir()
    monkeypatch.setattr(ranking, "MODEL_PATH", empty / "ranker.json")
    monkeypatch.setattr(unit_ranking, "MODEL_PATH", empty / "unit_ranker.json")
    monkeypatch.setattr(criterion_evidence, "MODEL_PATH", empty / "evidence_model.json")
    _forget_models()
    with override_settings(AICD_MODEL_DIR=str(empty)):
        yield empty
    _forget_models()


@pytest.mark.django_db
def test_ready_is_503_at_once_without_models(no_models: Path) -> None:
    started = time.monotonic()
    response = APIClient().get("/api/ready")
    assert time.monotonic() - started < 5
    assert response.status_code == 503
    assert response.json()["checks"]["models"] == "failing"
    assert str(no_models) not in response.content.decode()


@pytest.mark.django_db
def test_a_chat_without_models_is_a_diagnostic_and_calls_no_provider(
    no_models: Path, api_client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "get_provider", ExplodingProvider)
    started = time.monotonic()
    response = api_client.post(
        "/api/source-grounded-chat",
        {"question": "Who decides the production go-live?"},
        format="json",
    )
    assert time.monotonic() - started < 5
    body = response.json()
    assert response.status_code == 200
    assert body["state"] == "diagnostic"
    assert body["lanes"] == []
    assert "not ready" in json.dumps(body).lower()
    assert str(no_models) not in response.content.decode()


def test_the_system_check_names_the_command_for_each_missing_model(no_models: Path) -> None:
    messages = [m for m in run_checks() if m.id == "models.W001"]
    text = " ".join(m.msg for m in messages)
    assert len(messages) == 5
    for command in ("build_screening_model", "build_ranker", "build_unit_ranker"):
        assert command in text


@pytest.mark.django_db
def test_a_reader_page_without_a_built_pack_is_a_503_in_the_site_frame(
    logged_in_client, tmp_path: Path
) -> None:
    context_pack.reset_cache()
    with override_settings(AICD_CONTEXT_PACK_DIR=str(tmp_path / "nothing")):
        response = logged_in_client.get("/html/")
    context_pack.reset_cache()
    assert response.status_code == 503
    assert b"not ready" in response.content.lower()
    assert str(tmp_path).encode() not in response.content


def test_the_committed_models_fit_the_code() -> None:
    assert [m.id for m in run_checks() if m.id == "models.W001"] == []


ANSWER_AND_LIST_MODULES = """
import sys, django
django.setup()
from assistant.pipeline import services
run = services.answer(question="Who decides the production go-live?")
assert run.state == "answered", run.state
print("\\n".join(sorted(m for m in sys.modules if m == "learning" or m.startswith("learning."))))
"""


def test_a_process_that_answered_imported_no_learning_module() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "aicd.settings_test",
        "AICD_CONTEXT_PACK_DIR": str(settings.AICD_CONTEXT_PACK_DIR),
    }
    done = subprocess.run(
        [sys.executable, "-c", ANSWER_AND_LIST_MODULES],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = set(done.stdout.split())
    # The app's configuration is imported by INSTALLED_APPS; nothing that trains or evaluates.
    assert loaded <= {"learning", "learning.apps"}, loaded
