"""Test settings: the development defaults with a fast hasher, local-memory cache and temp paths."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("AICD_ENVIRONMENT", "test")
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-any-deployment-0123456789")
_TMP = Path(tempfile.mkdtemp(prefix="aicd-test-"))
os.environ.setdefault("AICD_CONTEXT_PACK_DIR", str(_TMP / "context_pack"))
os.environ.setdefault("AICD_STATIC_ROOT", str(_TMP / "staticfiles"))
(_TMP / "staticfiles").mkdir(exist_ok=True)

from aicd.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
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
