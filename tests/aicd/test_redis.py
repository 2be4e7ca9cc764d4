"""Throttle and sign-in lockout state in Redis (AICD_REDIS_URL): shared by every process.

Starts a throwaway redis-server on a free loopback port; the lockout is set by this process and
lifted by ``manage.py unlock_login`` in another process, which only works if the state is shared.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

pytestmark = pytest.mark.redis
PASSWORD = "correct-horse-battery"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            "redis-server is not installed: apt-get install -y redis-server (make test does it)"
        )
    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(host="127.0.0.1", port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("redis-server did not start")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def redis_cache(redis_url) -> Iterator[redis.Redis]:
    # The same cache definition aicd/settings.py builds from AICD_REDIS_URL.
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "aicd",
        }
    }
    with override_settings(CACHES=caches):
        cache.clear()
        yield redis.Redis.from_url(redis_url)
        cache.clear()


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=2)
def test_lockout_lives_in_redis_and_another_process_can_lift_it(
    redis_cache, redis_url, client, reviewer
) -> None:
    form = {"username": "rita", "password": "wrong"}
    for _ in range(2):
        client.post("/accounts/login/", form)
    locked = client.post("/accounts/login/", {"username": "rita", "password": PASSWORD})
    assert locked.status_code == 429
    keys = [k.decode() for k in redis_cache.keys("aicd:*")]
    assert any(":aicd:login:" in k and k.endswith(":locked") for k in keys)
    assert not any("rita" in k for k in keys)

    environ = {k: v for k, v in os.environ.items() if not k.startswith(("AICD_", "DJANGO_"))}
    environ.update(
        DJANGO_SETTINGS_MODULE="aicd.settings",
        AICD_REDIS_URL=redis_url,
        AICD_VAR_DIR=str(Path(settings.AICD_CONTEXT_PACK_DIR).parent / "var"),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "unlock_login", "rita"],
        cwd=settings.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (
        client.post("/accounts/login/", {"username": "rita", "password": PASSWORD}).status_code
        == 302
    )


@pytest.mark.django_db
def test_chat_throttle_counts_in_redis(redis_cache, monkeypatch, reviewer) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"chat": "2/min"})
    api = APIClient()
    api.force_authenticate(reviewer)
    url, body = "/api/source-grounded-chat", {"question": "who owns each stage gate?"}
    assert [api.post(url, body, format="json").status_code for _ in range(3)] == [200, 200, 429]
    keys = [k.decode() for k in redis_cache.keys("aicd:*")]
    assert any(k.endswith(f"throttle_log_chat_{reviewer.pk}") for k in keys)
