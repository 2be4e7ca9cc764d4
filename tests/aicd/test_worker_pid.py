"""The worker-pid header: present only when the test-only setting installs it, refused in production."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings
from django.test import override_settings

from aicd.worker_pid import HEADER
from bench.servers import REPO


def test_absent_by_default(client):
    assert "aicd.worker_pid.WorkerPidHeaderMiddleware" not in settings.MIDDLEWARE
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert HEADER not in response.headers


def test_names_the_serving_process_when_installed(client):
    middleware = [*settings.MIDDLEWARE, "aicd.worker_pid.WorkerPidHeaderMiddleware"]
    with override_settings(MIDDLEWARE=middleware):
        response = client.get("/accounts/login/")
    assert response.headers[HEADER] == str(os.getpid())


def _settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("AICD_", "DJANGO_"))}
    return subprocess.run(
        [sys.executable, "-c", "import aicd.settings as s; print(s.MIDDLEWARE[-1])"],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_setting_installs_it_outside_production():
    proc = _settings_with(
        AICD_EXPOSE_WORKER_PID="1", AICD_ENVIRONMENT="test", DJANGO_SECRET_KEY="x" * 50
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "aicd.worker_pid.WorkerPidHeaderMiddleware"


def test_production_refuses_the_setting():
    proc = _settings_with(
        AICD_EXPOSE_WORKER_PID="1",
        AICD_ENVIRONMENT="production",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="aicd.example.org",
    )
    assert proc.returncode != 0
    assert "AICD_EXPOSE_WORKER_PID is for tests only" in proc.stderr
