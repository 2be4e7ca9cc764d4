"""GET /api/health and /api/ready: anonymous probes that say ok/failing per check and nothing else.

They used to need authentication (the old tests asserted 401/403 for an anonymous caller); a
load balancer has no account, so the probes are public now and reveal no detail instead.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from aicd import health

HEALTH, READY = "/api/health", "/api/ready"


def test_health_answers_anonymously_with_ok_only():
    response = APIClient().get(HEALTH)
    assert (response.status_code, response.json()) == (200, {"status": "ok"})
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_health_answers_token_and_session_callers_too(reviewer, logged_in_client):
    token = Token.objects.create(user=reviewer)
    by_token = APIClient().get(HEALTH, HTTP_AUTHORIZATION=f"Token {token.key}")
    assert (by_token.status_code, by_token.json()) == (200, {"status": "ok"})
    by_session = logged_in_client.get(HEALTH)
    assert (by_session.status_code, by_session.json()) == (200, {"status": "ok"})


@pytest.mark.parametrize("url", [HEALTH, READY])
def test_probes_are_get_only_with_a_json_405(url):
    response = APIClient().post(url, {}, format="json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.django_db
def test_ready_is_200_when_every_check_passes():
    response = APIClient().get(READY)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready",
        "checks": {"context_pack": "ok", "models": "ok", "cache": "ok", "database": "ok"},
    }
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_a_stale_context_pack_is_not_ready(monkeypatch):
    monkeypatch.setattr(health, "package_version", lambda root: "edited-since")
    response = APIClient().get(READY)
    assert response.status_code == 503
    assert response.json()["status"] == "not_ready"
    assert response.json()["checks"]["context_pack"] == "failing"


@pytest.mark.django_db
def test_an_unreachable_database_is_not_ready_and_the_body_says_no_more(monkeypatch, caplog):
    secret_detail = "could not connect to server db.internal.example:5432 as aicd"

    def refuse() -> None:
        raise OperationalError(secret_detail)

    monkeypatch.setattr(health.connection, "ensure_connection", refuse)
    response = APIClient().get(READY)
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "failing"
    body = response.content.decode()
    for detail in (secret_detail, "db.internal", str(settings.BASE_DIR), "OperationalError"):
        assert detail not in body
    # The reason goes to the log, by exception type only (a URL could carry a password).
    assert "Readiness check database failed: OperationalError" in caplog.text
    assert secret_detail not in caplog.text


@pytest.mark.django_db
def test_an_unreachable_cache_is_not_ready():
    dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    with override_settings(CACHES=dummy):
        response = APIClient().get(READY)
    assert response.status_code == 503
    assert response.json()["checks"]["cache"] == "failing"


@pytest.mark.django_db
def test_probes_are_in_the_openapi_schema_without_security(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in (HEALTH, READY):
        operation = schema["paths"][path]["get"]
        assert operation.get("security") in (None, [], [{}]), json.dumps(operation)
        assert operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["paths"]["/api/source-grounded-chat"]["post"]["security"]
    assert set(schema["paths"][READY]["get"]["responses"]) == {"200", "503"}
