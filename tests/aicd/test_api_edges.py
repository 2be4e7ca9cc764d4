"""The API's edges: 401 challenges, JSON 404/405 in the error shape, no-store, throttles everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from core.throttling import SharedScopedRateThrottle

CHAT = "/api/source-grounded-chat"
SOURCES = "/api/session-sources"
VALIDATE = "/api/registry/validate"
QUESTION = {"question": "who owns each stage gate?"}


@pytest.fixture
def token_client(reviewer) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=reviewer).key}")
    return client


@pytest.fixture
def source_owner(django_user_model):
    user = django_user_model.objects.create_user(username="sofia", password="correct-horse-battery")
    user.groups.add(Group.objects.get(name="Source owners"))
    return user


@pytest.fixture
def template_text() -> str:
    path = Path(settings.BASE_DIR) / "docs" / "current_source_registry_template.json"
    return path.read_text(encoding="utf-8")


def _is_error(response, code: str) -> bool:
    body = json.loads(response.content)  # the schema view renders its 401 as OpenAPI JSON
    return set(body) == {"error"} and body["error"]["code"] == code and body["error"]["message"]


# ----------------------------------------------------------------------- 401 and its challenge
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", CHAT),
        ("get", SOURCES),
        ("delete", SOURCES),
        ("delete", SOURCES + "/session-paste-001"),
        ("get", VALIDATE),
        ("get", "/api/schema/?format=json"),
        ("get", "/api/no-such-endpoint"),
    ],
)
@pytest.mark.parametrize("authorization", [None, "Token not-a-real-token", "Token "])
def test_missing_or_bad_credentials_get_401_with_a_token_challenge(method, path, authorization):
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    response = getattr(APIClient(), method)(path, **headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    code = "not_authenticated" if authorization is None else "authentication_failed"
    assert _is_error(response, code)


@pytest.mark.django_db
def test_a_browser_session_still_authenticates(logged_in_client):
    response = logged_in_client.post(CHAT, QUESTION, content_type="application/json")
    assert response.status_code == 200


# ----------------------------------------------------------------------- JSON 404 and 405
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", SOURCES + "/"),
        ("get", SOURCES + "/"),
        ("post", CHAT + "/"),
        ("get", "/api/no-such-endpoint"),
        ("put", "/api/registry/validate/extra"),
        ("patch", "/api/v2/source-grounded-chat"),
        ("options", "/api/nothing-here"),
        ("delete", "/api/"),
    ],
)
def test_unknown_api_paths_get_a_json_404_for_every_method(token_client, method, path):
    response = getattr(token_client, method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert _is_error(response, "not_found")
    assert path in response.json()["error"]["message"]


@pytest.mark.django_db
def test_a_session_caller_gets_the_json_404_too(logged_in_client):
    response = logged_in_client.delete(SOURCES + "/")
    assert response.status_code == 404
    assert _is_error(response, "not_found")


def test_the_schema_without_its_slash_still_redirects():
    response = Client().get("/api/schema?format=json")
    assert (response.status_code, response["Location"]) == (301, "/api/schema/?format=json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", CHAT),
        ("put", CHAT),
        ("patch", SOURCES),
        ("put", SOURCES + "/session-paste-001"),
        ("delete", VALIDATE),
    ],
)
def test_known_api_paths_answer_unknown_methods_with_a_json_405(
    token_client, source_owner, method, path
):
    if path == VALIDATE:
        token_client.credentials(
            HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=source_owner).key}"
        )
    response = getattr(token_client, method)(path)
    assert response.status_code == 405
    assert _is_error(response, "method_not_allowed")


# ----------------------------------------------------------------------- Cache-Control: no-store
def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.mark.django_db
def test_answers_and_session_sources_are_no_store(token_client):
    paste = {"title": "Notes", "text": "Owner: Dana approves the stage gate."}
    responses = {
        "chat": token_client.post(CHAT, QUESTION, format="json"),
        "chat 400": token_client.post(CHAT, {"question": ""}, format="json"),
        "add": token_client.post(SOURCES, paste, format="json"),
        "list": token_client.get(SOURCES),
        "remove": token_client.delete(SOURCES + "/session-paste-001"),
        "clear": token_client.delete(SOURCES),
    }
    assert [r.status_code for r in responses.values()] == [200, 400, 201, 200, 204, 204]
    assert [name for name, r in responses.items() if not _no_store(r)] == []


@pytest.mark.django_db
def test_the_chat_page_is_no_store_before_and_after_a_question(logged_in_client):
    page = logged_in_client.get("/")
    answered = logged_in_client.post("/", {"mode": "package_only", **QUESTION}, follow=True)
    assert (page.status_code, answered.status_code) == (200, 200)
    assert b"Package says" in answered.content
    assert _no_store(page) and _no_store(answered)


# ----------------------------------------------------------------------- every change throttled
@pytest.fixture
def one_per_minute(monkeypatch, reviewer, source_owner):
    for scope in ("uploads", "registry"):
        for user in (reviewer, source_owner):
            cache.delete(SharedScopedRateThrottle.cache_format % {"scope": scope, "ident": user.pk})
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"uploads": "1/min", "registry": "1/min"}
    )


def _add_paste(client) -> None:
    client.post("/session-sources/add", {"title": "Notes", "text": "Owner: Dana."})


@pytest.mark.django_db
def test_the_upload_panels_remove_is_throttled(logged_in_client, one_per_minute):
    _add_paste(logged_in_client)  # spends the one allowed change
    logged_in_client.post("/session-sources/session-paste-001/remove")
    html = logged_in_client.get("/").content.decode()
    assert 'id="source-session-paste-001"' in html
    assert "Too many changes" in html


@pytest.mark.django_db
def test_the_upload_panels_clear_is_throttled(logged_in_client, one_per_minute):
    _add_paste(logged_in_client)
    logged_in_client.post("/session-sources/clear")
    html = logged_in_client.get("/").content.decode()
    assert 'id="source-session-paste-001"' in html
    assert "Too many changes" in html


@pytest.mark.django_db
def test_registry_validation_is_throttled(source_owner, one_per_minute, template_text):
    owner_api_client = APIClient()
    owner_api_client.force_authenticate(source_owner)
    assert owner_api_client.get(VALIDATE).status_code == 200
    refused = owner_api_client.post(VALIDATE, template_text, content_type="application/json")
    assert refused.status_code == 429
    assert _is_error(refused, "throttled")
    assert "Retry-After" in refused


@pytest.mark.django_db
def test_the_registry_review_page_post_is_throttled(
    client, source_owner, one_per_minute, template_text
):
    owner_client = client
    owner_client.force_login(source_owner)
    assert (
        owner_client.post("/registry-review/", {"registry_json": template_text}).status_code == 200
    )
    refused = owner_client.post("/registry-review/", {"registry_json": template_text})
    assert refused.status_code == 429
    assert owner_client.get("/registry-review/").status_code == 200  # reading is not a change
