"""POST /api/source-grounded-chat over HTTP: auth, input errors and the CONTRACT body."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

URL = "/api/source-grounded-chat"


@pytest.mark.django_db
def test_anonymous_is_rejected() -> None:
    response = APIClient().post(URL, {"question": "stage gates?"}, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.django_db
def test_token_auth_from_drf_create_token(reviewer) -> None:
    call_command("drf_create_token", reviewer.username)
    key = Token.objects.get(user=reviewer).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.post(URL, {"question": "who owns each stage gate?"}, format="json")
    assert response.status_code == 200
    assert response.json()["state"] == "answered"


@pytest.mark.django_db
def test_answer_body_matches_contract(api_client) -> None:
    body = api_client.post(
        URL,
        {"question": "what should a reviewer check in a proposal's data boundary?"},
        format="json",
    ).json()
    assert set(body) >= {
        "run_id",
        "mode",
        "state",
        "refusal",
        "notices",
        "lanes",
        "citations",
        "current_context",
        "derivative_output_label",
        "telemetry",
    }
    assert body["mode"] == "package_only" and body["state"] == "answered"
    citation = body["citations"][0]
    assert set(citation) >= {
        "id",
        "citation_class",
        "title",
        "excerpt",
        "claim_boundary",
        "source_path",
        "reader_target",
        "source_family",
        "source_quality",
    }
    assert citation["reader_target"].startswith("/html/")
    assert body["lanes"][0]["citation_ids"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "question"),
        ({"question": "   "}, "question"),
        ({"question": "x" * 2001}, "question"),
        ({"question": "stage gates?", "mode": "web_search"}, "mode"),
        ({"question": "stage gates?", "session_source_ids": "abc"}, "session_source_ids"),
        ({"question": ["stage gates?"]}, "question"),
    ],
)
def test_bad_input_is_a_400_with_field_errors(api_client, payload, field) -> None:
    response = api_client.post(URL, payload, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] in ("invalid_request",)
    if field:
        assert field in error["fields"]


@pytest.mark.django_db
def test_malformed_json_and_non_object(api_client) -> None:
    response = api_client.post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"
    response = api_client.post(URL, "[1, 2]", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.django_db
def test_unknown_session_source_is_a_400(api_client) -> None:
    response = api_client.post(
        URL, {"question": "stage gates?", "session_source_ids": ["nope"]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_session_source"


@pytest.mark.django_db
def test_get_is_not_allowed(api_client) -> None:
    assert api_client.get(URL).status_code == 405
