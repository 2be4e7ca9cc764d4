"""App configuration for uploads, with a check that session sources cannot reach the database."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks

ALLOWED_SESSION_ENGINES = ("django.contrib.sessions.backends.cache",)
MEMORY_HANDLER = "uploads.handlers.MemoryOnlyUploadHandler"


def check_session_only_storage(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Session sources live in the session: it must be the cache backend, uploads memory-only."""
    problems: list[checks.CheckMessage] = []
    if settings.SESSION_ENGINE not in ALLOWED_SESSION_ENGINES:
        problems.append(
            checks.Error(
                f"SESSION_ENGINE is {settings.SESSION_ENGINE!r}; session sources would be stored "
                "there. Use the cache session backend so uploads never reach the database or disk.",
                id="uploads.E001",
            )
        )
    if list(settings.FILE_UPLOAD_HANDLERS) != [MEMORY_HANDLER]:
        problems.append(
            checks.Error(
                f"FILE_UPLOAD_HANDLERS must be [{MEMORY_HANDLER!r}] so uploads are never spooled to disk.",
                id="uploads.E002",
            )
        )
    return problems


class UploadsConfig(AppConfig):
    name = "uploads"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        checks.register(check_session_only_storage)
