"""GET/POST /api/registry/validate: the CONTRACT report body, raw-text parsing, limits, token auth."""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from registry_review.validation import MAX_REGISTRY_BYTES
from tests.registry_review.conftest import UNSAFE_CASES, nist_record

API = "/api/registry/validate"


def _post(client: APIClient, text: str | bytes, content_type: str = "application/json"):
    return client.post(API, text, content_type=content_type)


@pytest.mark.django_db
def test_get_reports_the_configured_registry(owner_api_client, settings, template_text) -> None:
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = template_text
    body = owner_api_client.get(API).json()
    assert body["state"] == "valid"
    assert [(r["id"], r["valid"], r["errors"], r["warnings"]) for r in body["records"]] == [
        ("nist-ai-rmf-public-framework-candidate", True, [], [])
    ]
    assert body["adapter_outcome"] == "ready with 1 source"


@pytest.mark.django_db
def test_get_with_nothing_configured_is_empty(owner_api_client, settings) -> None:
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = ""
    assert owner_api_client.get(API).json() == {
        "state": "empty",
        "records": [],
        "document_errors": [],
        "adapter_outcome": "unconfigured",
    }


@pytest.mark.django_db
def test_posting_the_template_registry_is_valid(
    owner_api_client, template_text, no_network
) -> None:
    response = _post(owner_api_client, template_text)
    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "valid" and body["records"][0]["valid"] is True
    assert body["records"][0]["record"] == json.loads(template_text)["sources"][0]


@pytest.mark.django_db
def test_each_unsafe_record_is_flagged_with_its_reason(
    owner_api_client, unsafe_text, no_network
) -> None:
    body = _post(owner_api_client, unsafe_text).json()
    assert body["state"] == "invalid"
    records = {r["id"]: r for r in body["records"]}
    assert records["nist-ai-rmf"]["valid"] is True
    for record_id, _, code, field, reason in UNSAFE_CASES:
        record = records[record_id]
        assert record["valid"] is False and record["record"] is None
        assert any(reason in message for message in record["errors"]), record["errors"]
        assert {"field": field, "code": code} in [
            {"field": d["field"], "code": d["code"]} for d in record["details"]["errors"]
        ]


@pytest.mark.django_db
def test_malformed_json_gets_a_document_level_report_with_line_and_column(owner_api_client) -> None:
    response = _post(owner_api_client, '{"sources": [\n  {"id": "x"\n]}')
    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "invalid" and body["records"] == []
    assert body["document_errors"][0]["code"] == "json_syntax"
    assert "line 3, column 1" in body["document_errors"][0]["message"]


@pytest.mark.django_db
def test_text_plain_body_is_accepted(owner_api_client, template_text) -> None:
    assert (
        _post(owner_api_client, template_text, "text/plain; charset=utf-8").json()["state"]
        == "valid"
    )


@pytest.mark.django_db
def test_body_over_the_limit_is_413_with_the_contract_error(owner_api_client) -> None:
    text = json.dumps({"sources": [nist_record()]})
    response = _post(owner_api_client, text + " " * (MAX_REGISTRY_BYTES + 1 - len(text)))
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "registry_too_large"
    assert f"the limit is 256 KiB ({MAX_REGISTRY_BYTES} bytes)" in error["message"]


@pytest.mark.django_db
def test_form_or_multipart_bodies_are_415(owner_api_client, template_text) -> None:
    response = owner_api_client.post(API, {"registry_json": template_text}, format="multipart")
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


@pytest.mark.django_db
def test_non_utf8_body_is_400(owner_api_client) -> None:
    response = _post(owner_api_client, '{"sources": [], "owner": "Zo\xeb"}'.encode("latin-1"))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "registry_not_utf8"


@pytest.mark.django_db
def test_token_auth_works_for_a_source_owner(source_owner, template_text) -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=source_owner).key}")
    assert _post(api, template_text).json()["state"] == "valid"


@pytest.mark.django_db
def test_session_auth_enforces_csrf(source_owner, template_text) -> None:
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(source_owner)
    response = _post(api, template_text)
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]["message"]


def _session_client(user) -> APIClient:
    """A signed-in browser as it really calls the API: CSRF enforced, token in cookie and header."""
    from django.middleware.csrf import _get_new_csrf_string

    secret = _get_new_csrf_string()
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(user)
    api.cookies["csrftoken"] = secret
    api.credentials(HTTP_X_CSRFTOKEN=secret)
    return api


# The CSRF check of session authentication once made DRF parse the body with the JSON parser, so
# these three answered a session differently (a parse error, a 415) from a token.
SAME_EITHER_WAY = {
    "bom-prefixed": ("\ufeff" + json.dumps({"sources": [nist_record()]}), "application/json"),
    "malformed": ('{"sources": [', "application/json"),
    "text/plain": (json.dumps({"sources": [nist_record()]}), "text/plain"),
    "json with charset": (json.dumps({"sources": []}), "application/json; charset=utf-8"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(SAME_EITHER_WAY))
def test_session_and_token_callers_get_the_same_answer(source_owner, case) -> None:
    text, content_type = SAME_EITHER_WAY[case]
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=source_owner).key}")
    token_answer = _post(by_token, text.encode("utf-8"), content_type)
    session_answer = _post(_session_client(source_owner), text.encode("utf-8"), content_type)
    assert (session_answer.status_code, session_answer.json()) == (
        token_answer.status_code,
        token_answer.json(),
    )
    assert token_answer.status_code == 200
    expected = "invalid" if case == "malformed" else ("empty" if "charset" in case else "valid")
    assert token_answer.json()["state"] == expected
