"""Test settings: the development defaults with a fast hasher, local-memory cache and temp paths."""

import os
import tempfile
from pathlib import Path

import dj_database_url

os.environ.setdefault("AICD_ENVIRONMENT", "test")
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-any-deployment-0123456789")
_TMP = Path(tempfile.mkdtemp(prefix="aicd-test-"))
os.environ.setdefault("AICD_CONTEXT_PACK_DIR", str(_TMP / "context_pack"))
os.environ.setdefault("AICD_STATIC_ROOT", str(_TMP / "staticfiles"))
(_TMP / "staticfiles").mkdir(exist_ok=True)

from aicd.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# SQLite in memory, or the database AICD_TEST_DATABASE_URL names: `make test` runs the database
# tests a second time against the throwaway PostgreSQL that scripts/with-test-services starts.
_TEST_DATABASE_URL = os.environ.get("AICD_TEST_DATABASE_URL", "")
DATABASES = {
    "default": (
        dj_database_url.parse(_TEST_DATABASE_URL)
        if _TEST_DATABASE_URL
        else {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
    )
}
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "aicd-test"}
}
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        "chat": "10000/min",
        "uploads": "10000/min",
        "registry": "10000/min",
    },
}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
