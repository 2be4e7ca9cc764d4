"""GET /api/health: authenticated callers only, and it says nothing but ok."""

from __future__ import annotations

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

URL = "/api/health"


def test_anonymous_is_refused():
    response = APIClient().get(URL)
    assert response.status_code in (401, 403)
    assert "status" not in response.json()


def test_token_and_session_callers_get_ok(reviewer, logged_in_client):
    token = Token.objects.create(user=reviewer)
    by_token = APIClient().get(URL, HTTP_AUTHORIZATION=f"Token {token.key}")
    assert (by_token.status_code, by_token.json()) == (200, {"status": "ok"})
    by_session = logged_in_client.get(URL)
    assert (by_session.status_code, by_session.json()) == (200, {"status": "ok"})


def test_only_get(api_client):
    assert api_client.post(URL, {}, format="json").status_code == 405
