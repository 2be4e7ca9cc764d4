"""CSRF on every form and on session-authenticated API calls; session cookie flags and expiry."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

CHAT_FORM = {"mode": "package_only", "question": "who owns each stage gate?"}


def _csrf_token(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match, "the page has no CSRF token field"
    return match.group(1)


@pytest.mark.django_db
def test_chat_post_without_token_is_403_and_with_token_is_200(reviewer) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    refused = client.post("/", CHAT_FORM)
    assert refused.status_code == 403
    assert b"Package says" not in refused.content
    token = _csrf_token(client.get("/").content.decode())
    assert (
        client.post("/", {**CHAT_FORM, "csrfmiddlewaretoken": token}, follow=True).status_code
        == 200
    )


@pytest.mark.django_db
def test_login_and_logout_posts_need_the_token(reviewer) -> None:
    client = Client(enforce_csrf_checks=True)
    form = {"username": "rita", "password": "correct-horse-battery"}
    assert client.post("/accounts/login/", form).status_code == 403
    token = _csrf_token(client.get("/accounts/login/").content.decode())
    assert (
        client.post("/accounts/login/", {**form, "csrfmiddlewaretoken": token}).status_code == 302
    )
    assert client.post("/accounts/logout/").status_code == 403
    assert "_auth_user_id" in client.session


@pytest.mark.django_db
def test_every_post_form_on_the_chat_page_carries_a_token(reviewer) -> None:
    client = Client()
    client.force_login(reviewer)
    html = client.post("/", CHAT_FORM, follow=True).content.decode()
    forms = re.findall(r"<form\b[^>]*>.*?</form>", html, flags=re.S | re.I)
    posts = [f for f in forms if re.search(r'method="post"', f, re.I)]
    assert len(posts) >= 2  # the question form and sign-out
    assert all("csrfmiddlewaretoken" in f for f in posts)


@pytest.mark.django_db
def test_session_api_call_without_csrf_is_403_token_call_needs_none(reviewer) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(reviewer)
    url = "/api/source-grounded-chat"
    body = {"question": "who owns each stage gate?"}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    key = Token.objects.create(user=reviewer).key
    token_client = Client(enforce_csrf_checks=True)
    response = token_client.post(
        url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}"
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_session_cookie_is_httponly_lax_and_expires(reviewer) -> None:
    client = Client()
    response = client.post(
        "/accounts/login/", {"username": "rita", "password": "correct-horse-battery"}
    )
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert settings.SESSION_EXPIRE_AT_BROWSER_CLOSE and not cookie["max-age"]
    assert client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE <= 12 * 3600
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cache"


@pytest.mark.django_db
def test_expired_session_is_signed_out(reviewer, settings) -> None:
    client = Client()
    client.force_login(reviewer)
    session = client.session
    session.set_expiry(-1)
    session.save()
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_sign_out_ends_the_server_side_session(reviewer) -> None:
    client = Client()
    client.force_login(reviewer)
    key = client.session.session_key
    client.post("/accounts/logout/")
    from django.contrib.sessions.backends.cache import SessionStore

    assert not SessionStore().exists(key)
    assert client.get("/").status_code == 302
