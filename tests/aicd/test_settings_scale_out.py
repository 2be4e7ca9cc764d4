"""Scale-out settings chosen by environment variables alone: Redis cache/sessions, PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from bench.servers import REPO

PROBE = (
    "import json, aicd.settings as s; print(json.dumps({'cache': s.CACHES['default']['BACKEND'], "
    "'location': s.CACHES['default'].get('LOCATION'), 'session': s.SESSION_ENGINE, "
    "'db': s.DATABASES['default']['ENGINE'], 'db_name': s.DATABASES['default']['NAME'], "
    "'db_host': s.DATABASES['default'].get('HOST', '')}))"
)


def _settings(**env: str) -> dict[str, str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("AICD_", "DJANGO_", "DATABASE_URL"))
    }
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={**clean, "AICD_ENVIRONMENT": "test", "DJANGO_SECRET_KEY": "x" * 50, **env},
    )
    return json.loads(proc.stdout)


def test_default_is_local_memory_cache_sessions_and_sqlite():
    s = _settings()
    assert s["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert s["session"] == "django.contrib.sessions.backends.cache"
    assert s["db"] == "django.db.backends.sqlite3"


def test_redis_and_postgresql_by_environment_alone():
    s = _settings(
        AICD_REDIS_URL="redis://cache.internal:6379/2",
        DATABASE_URL="postgres://aicd:pw@db.internal:5432/aicd",
    )
    assert s["cache"] == "core.cache.RedisCache"
    assert s["location"] == "redis://cache.internal:6379/2"
    # Sessions (and the session sources inside them) stay in the cache, never in the database.
    assert s["session"] == "django.contrib.sessions.backends.cache"
    assert (s["db"], s["db_name"], s["db_host"]) == (
        "django.db.backends.postgresql",
        "aicd",
        "db.internal",
    )
