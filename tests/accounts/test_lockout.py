"""Sign-in brute-force lockout: per username and address, 429 with Retry-After, reset and expiry."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import authenticate
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import RequestFactory, override_settings

from accounts import lockout

LOGIN = "/accounts/login/"
PASSWORD = "correct-horse-battery"  # the `reviewer` fixture's password


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _attempt(client, username: str, password: str, addr: str = "203.0.113.7"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=addr)


def _fail(client, username: str, times: int, addr: str = "203.0.113.7") -> None:
    for _ in range(times):
        response = _attempt(client, username, "wrong-password", addr)
        assert response.status_code == 200  # the ordinary "did not match" form, not yet locked


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=3)
def test_lockout_after_limit_refuses_even_the_right_password(client, reviewer) -> None:
    _fail(client, "rita", 3)
    response = _attempt(client, "rita", PASSWORD)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 900
    html = response.content.decode()
    assert "Too many failed sign-in attempts" in html
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=3)
def test_lock_is_per_address_and_per_username(client, reviewer, django_user_model) -> None:
    django_user_model.objects.create_user(username="omar", password=PASSWORD)
    _fail(client, "rita", 3, addr="203.0.113.7")
    assert _attempt(client, "rita", PASSWORD, addr="203.0.113.7").status_code == 429
    # The same account from another address, and another account from the same address, still work.
    assert _attempt(client, "omar", PASSWORD, addr="203.0.113.7").status_code == 302
    client.logout()
    assert _attempt(client, "rita", PASSWORD, addr="198.51.100.9").status_code == 302


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=3)
def test_username_case_does_not_dodge_the_count(client, reviewer) -> None:
    _attempt(client, "rita", "wrong")
    _attempt(client, "RITA", "wrong")
    _attempt(client, " Rita", "wrong")
    assert _attempt(client, "rita", PASSWORD).status_code == 429


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=3)
def test_success_resets_the_count(client, reviewer) -> None:
    _fail(client, "rita", 2)
    assert _attempt(client, "rita", PASSWORD).status_code == 302
    client.logout()
    _fail(client, "rita", 2)  # a fresh count: two more failures do not lock
    assert _attempt(client, "rita", PASSWORD).status_code == 302


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=2, AICD_LOGIN_LOCKOUT_S=1)
def test_lock_expires_after_the_lockout_period(client, reviewer) -> None:
    _fail(client, "rita", 2)
    assert _attempt(client, "rita", PASSWORD).status_code == 429
    time.sleep(1.2)
    assert _attempt(client, "rita", PASSWORD).status_code == 302


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=2, AICD_LOGIN_LOCKOUT_S=1)
def test_attempts_while_locked_do_not_extend_the_lock(client, reviewer) -> None:
    _fail(client, "rita", 2)
    time.sleep(0.6)
    for _ in range(3):
        assert _attempt(client, "rita", "wrong").status_code == 429
    time.sleep(0.6)  # 1.2 s after the lock began, 0.6 s after the last attempt
    assert _attempt(client, "rita", PASSWORD).status_code == 302


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=2)
def test_operator_unlock_lifts_every_address(client, reviewer) -> None:
    _fail(client, "rita", 2, addr="203.0.113.7")
    _fail(client, "rita", 2, addr="198.51.100.9")
    lockout.unlock_username("Rita")
    assert _attempt(client, "rita", PASSWORD, addr="203.0.113.7").status_code == 302
    client.logout()
    assert _attempt(client, "rita", PASSWORD, addr="198.51.100.9").status_code == 302


def test_unlock_command_refuses_a_per_process_cache() -> None:
    with pytest.raises(CommandError, match="local-memory cache"):
        call_command("unlock_login", "rita")


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=2)
def test_admin_sign_in_shares_the_lock(client, django_user_model) -> None:
    django_user_model.objects.create_user(username="ada", password=PASSWORD, is_staff=True)
    for _ in range(2):
        client.post(
            "/admin/login/", {"username": "ada", "password": "nope"}, REMOTE_ADDR="203.0.113.7"
        )
    response = client.post(
        "/admin/login/", {"username": "ada", "password": PASSWORD}, REMOTE_ADDR="203.0.113.7"
    )
    assert response.status_code == 200  # the admin form re-rendered: no session was created
    assert "_auth_user_id" not in client.session
    assert _attempt(client, "ada", PASSWORD).status_code == 429


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=1)
def test_backend_refuses_without_checking_the_password(reviewer, monkeypatch) -> None:
    request = RequestFactory().post(LOGIN, REMOTE_ADDR="203.0.113.7")
    assert authenticate(request, username="rita", password="wrong") is None
    checked = []
    monkeypatch.setattr(type(reviewer), "check_password", lambda self, raw: checked.append(raw))
    assert authenticate(request, username="rita", password=PASSWORD) is None
    assert checked == []


def test_cache_keys_never_contain_the_username(monkeypatch) -> None:
    seen: list[str] = []
    real_add = cache.add
    monkeypatch.setattr(
        cache, "add", lambda key, *a, **k: seen.append(key) or real_add(key, *a, **k)
    )
    lockout.record_failure("secret-username@example.org", "203.0.113.7")
    assert seen and not any("secret-username" in key or "203.0.113.7" in key for key in seen)


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "198.51.100.1", "10.0.0.2"),  # no trusted proxy: the header is ignored
        (1, "198.51.100.1", "198.51.100.1"),
        (1, "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # a spoofed left entry is ignored
        (2, "6.6.6.6, 198.51.100.1, 10.0.0.9", "198.51.100.1"),
        (2, "198.51.100.1", "10.0.0.2"),  # fewer entries than proxies: fall back
    ],
)
def test_client_address_trusts_only_the_configured_proxies(proxies, forwarded, expected) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(AICD_TRUSTED_PROXY_COUNT=proxies):
        assert lockout.client_address(request) == expected


@pytest.mark.django_db
@override_settings(AICD_LOGIN_FAILURE_LIMIT=2)
def test_lockout_is_logged_without_the_username_or_password(client, reviewer, caplog) -> None:
    with caplog.at_level("WARNING", logger="accounts.lockout"):
        _fail(client, "rita", 2)
    assert "sign-in locked" in caplog.text and "203.0.113.7" in caplog.text
    assert "rita" not in caplog.text and "wrong-password" not in caplog.text
