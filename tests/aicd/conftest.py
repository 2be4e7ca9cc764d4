"""Fixtures for the scale-out tests: the CI Redis, and gunicorn with two workers against it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings

from bench.servers import Gunicorn, app_env, create_users, free_port, manage

SESSION_AGE_S = 900
CHAT_RATE_PER_MIN = 40


@pytest.fixture(scope="session")
def redis_url() -> str:
    """AICD_TEST_REDIS_URL (set by make test); a skip with the reason when unset."""
    url = os.environ.get("AICD_TEST_REDIS_URL", "")
    if not url:
        reason = (
            "AICD_TEST_REDIS_URL is unset: these tests need a redis-server; make test starts one "
            "(apt-get install redis-server, then run make test or export the URL)"
        )
        if os.environ.get("AICD_REQUIRE_REDIS_TESTS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return url


@pytest.fixture(scope="session")
def redis_client(redis_url: str) -> redis.Redis:
    """The test Redis, emptied first: AICD_TEST_REDIS_URL must name a database tests may clear."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    return client


@pytest.fixture(scope="module")
def two_workers(
    redis_client: redis.Redis,
    redis_url: str,
    tmp_path_factory: pytest.TempPathFactory,
    built_sample_pack: object,
) -> Iterator[Gunicorn]:
    """gunicorn with 2 workers, Redis sessions/cache/throttles, its own migrated SQLite DB."""
    workdir: Path = tmp_path_factory.mktemp("gunicorn")
    env = app_env(
        workdir,
        AICD_REDIS_URL=redis_url,
        AICD_CONTEXT_PACK_DIR=str(settings.AICD_CONTEXT_PACK_DIR),
        AICD_WORKERS="2",
        AICD_EXPOSE_WORKER_PID="1",
        AICD_SESSION_AGE_S=str(SESSION_AGE_S),
        AICD_CHAT_THROTTLE_RATE=f"{CHAT_RATE_PER_MIN}/min",
        AICD_UPLOAD_THROTTLE_RATE="1000/min",
    )
    manage(env, "migrate", "--noinput")
    create_users(env, {name: f"{name}-correct-horse-battery" for name in ("ada", "bo", "cy")})
    server = Gunicorn(env=env, port=free_port(), log_path=workdir / "gunicorn.log").start()
    try:
        yield server
    finally:
        server.stop()
