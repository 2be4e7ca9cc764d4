"""Anonymous probes: liveness (``/api/health``) and readiness (``/api/ready``), saying nothing else.

A load balancer or orchestrator calls them without credentials. The bodies carry a status and,
for readiness, one word per check: no versions, paths, host names or error text, which would
help an attacker more than an operator (the reason for a failed check is logged instead).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.cache import caches
from django.db import connection
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from assistant.package.artifacts import package_version
from assistant.pipeline import readiness as model_readiness
from assistant.retrieval import context_pack

logger = logging.getLogger(__name__)

OK, FAILING = "ok", "failing"


def _context_pack() -> bool:
    """The pack is loaded and was built from the package being served."""
    pack = context_pack.get_context_pack()
    return pack.package_version == package_version(Path(settings.AICD_PACKAGE_DIR))


def _models() -> bool:
    """Every learnt model is built and fits this code (loading only: the worker never trains)."""
    return not model_readiness.missing_models()


def _cache() -> bool:
    cache = caches["default"]
    key, value = "aicd:ready-probe", uuid.uuid4().hex
    cache.set(key, value, timeout=10)
    return bool(cache.get(key) == value)


def _database() -> bool:
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return bool(cursor.fetchone() == (1,))


CHECKS: dict[str, Callable[[], bool]] = {
    "context_pack": _context_pack,
    "models": _models,
    "cache": _cache,
    "database": _database,
}


def readiness() -> dict[str, str]:
    """Each check's outcome, ``ok`` or ``failing``; a failure's reason goes to the log only."""
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = OK if check() else FAILING
        except Exception as exc:  # noqa: BLE001 - any failure means "not ready", never a 500
            logger.warning("Readiness check %s failed: %s", name, type(exc).__name__)
            results[name] = FAILING
        else:
            if results[name] == FAILING:
                logger.warning("Readiness check %s failed", name)
    return results


_HEALTH_BODY = inline_serializer("Health", fields={"status": serializers.CharField()})
_READY_BODY = inline_serializer(
    "Readiness",
    fields={
        "status": serializers.ChoiceField(choices=["ready", "not_ready"]),
        "checks": serializers.DictField(child=serializers.ChoiceField(choices=[OK, FAILING])),
    },
)


@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")
class HealthView(APIView):
    """GET: ``{"status": "ok"}`` while the process serves requests (liveness); anonymous."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="Liveness probe",
        description='Anonymous. 200 with `{"status": "ok"}` while the process answers.',
        responses={200: _HEALTH_BODY},
        auth=[],
    )
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})


@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")
class ReadyView(APIView):
    """GET: 200 when this worker can answer (pack current, screening model, cache, database)."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="Readiness probe",
        description=(
            "Anonymous. 200 when the context pack is loaded and built from the served package, "
            "the screening model is loaded, and the cache and the database answer; otherwise "
            "503. Each check is reported as `ok` or `failing`, with no further detail."
        ),
        responses={200: _READY_BODY, 503: _READY_BODY},
        examples=[
            OpenApiExample(
                "ready",
                value={
                    "status": "ready",
                    "checks": {
                        "context_pack": OK,
                        "models": OK,
                        "cache": OK,
                        "database": OK,
                    },
                },
                response_only=True,
                status_codes=["200"],
            )
        ],
        auth=[],
    )
    def get(self, request: Request) -> Response:
        checks = readiness()
        ready = all(outcome == OK for outcome in checks.values())
        return Response(
            {"status": "ready" if ready else "not_ready", "checks": checks},
            status=status.HTTP_200_OK if ready else status.HTTP_503_SERVICE_UNAVAILABLE,
        )
