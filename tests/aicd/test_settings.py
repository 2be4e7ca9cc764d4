"""Production settings, in fresh processes: check --deploy clean, required values, static files, TLS.

Each test runs manage.py or a short script in a subprocess with AICD_ENVIRONMENT=production and an
environment built here, so nothing the test settings set leaks into what is checked.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.conf import settings

from aicd import env

ROOT = Path(settings.BASE_DIR)


def production_env(tmp_path: Path, **overrides: str | None) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AICD_", "DJANGO_"))}
    base.update(
        {
            "DJANGO_SETTINGS_MODULE": "aicd.settings",
            "AICD_ENVIRONMENT": "production",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": "aicd.example.org",
            "AICD_VAR_DIR": str(tmp_path / "var"),
            "AICD_STATIC_ROOT": str(tmp_path / "static"),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        }
    )
    for key, value in overrides.items():
        if value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return base


def run(args: list[str], environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_at_warning_level(tmp_path) -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env(tmp_path)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_fails_on_a_weak_secret_key(tmp_path) -> None:
    environ = production_env(tmp_path, DJANGO_SECRET_KEY="short-key")
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], environ)
    assert result.returncode != 0
    assert "security.W009" in result.stderr


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"DJANGO_SECRET_KEY": None}, "DJANGO_SECRET_KEY is required"),
        ({"DJANGO_ALLOWED_HOSTS": None}, "DJANGO_ALLOWED_HOSTS"),
        ({"DJANGO_DEBUG": "true"}, "DJANGO_DEBUG must be off"),
        ({"AICD_CHAT_THROTTLE_RATE": "lots"}, "AICD_CHAT_THROTTLE_RATE must look like"),
    ],
)
def test_production_refuses_to_start_misconfigured(tmp_path, overrides, message) -> None:
    result = run(["manage.py", "check"], production_env(tmp_path, **overrides))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr


SERVE_SCRIPT = textwrap.dedent(
    """
    import json, django
    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.contrib.auth import get_user_model
    call_command("collectstatic", "--noinput", verbosity=0)
    call_command("migrate", verbosity=0)
    get_user_model().objects.create_user("rita", password="correct-horse-battery")
    out = {}
    plain = Client(HTTP_HOST="aicd.example.org")
    out["http_status"] = plain.get("/accounts/login/").status_code
    out["http_location"] = plain.get("/accounts/login/")["Location"]
    tls = Client(HTTP_HOST="aicd.example.org", HTTP_X_FORWARDED_PROTO="https")
    page = tls.get("/accounts/login/")
    out["https_status"] = page.status_code
    out["hsts"] = page.get("Strict-Transport-Security")
    out["csp"] = page.get("Content-Security-Policy")
    out["html"] = page.content.decode()
    css = [w for w in out["html"].split('"') if w.startswith("/static/css/app.")]
    out["css_url"] = css[0] if css else None
    if css:
        static = tls.get(css[0])
        out["css_status"] = static.status_code
        out["css_cache"] = static.get("Cache-Control")
        out["css_body"] = b"".join(static.streaming_content).decode()
    csrf = page.cookies["csrftoken"]
    out["csrf_secure"] = bool(csrf["secure"])
    login = tls.post("/accounts/login/", {"username": "rita", "password": "correct-horse-battery"})
    out["login_status"] = login.status_code
    session = login.cookies["sessionid"]
    out["session_flags"] = [bool(session["secure"]), bool(session["httponly"]), session["samesite"]]
    print(json.dumps(out))
    """
)


def test_production_serves_hashed_static_files_over_tls_only(tmp_path) -> None:
    import json

    result = run(["-c", SERVE_SCRIPT], production_env(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["http_status"] == 301 and out["http_location"].startswith(
        "https://aicd.example.org/"
    )
    assert out["https_status"] == 200
    assert out["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert "default-src 'self'" in out["csp"]
    # ManifestStaticFilesStorage: a content-hashed name, served by WhiteNoise with a far expiry.
    assert out["css_url"] and out["css_url"] != "/static/css/app.css"
    assert out["css_status"] == 200 and "max-age=315360000" in out["css_cache"]
    assert ".citations-package" in out["css_body"]
    manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())["paths"]
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in manifest
    assert any((tmp_path / "static" / "css").glob("app.*.css.gz"))
    assert out["csrf_secure"] is True
    assert out["login_status"] == 302
    assert out["session_flags"] == [True, True, "Lax"]


def test_proxy_header_name_is_configurable(tmp_path) -> None:
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.SECURE_PROXY_SSL_HEADER)"
    )
    environ = production_env(tmp_path, AICD_PROXY_SSL_HEADER="X-Forwarded-Scheme")
    result = run(["-c", script], environ)
    assert result.stdout.strip() == "('HTTP_X_FORWARDED_SCHEME', 'https')", result.stderr


@pytest.mark.parametrize("value", ["60/min", "5/s", "1000/day", "10/hour"])
def test_rate_parser_accepts_drf_rates(monkeypatch, value) -> None:
    monkeypatch.setenv("AICD_TEST_RATE", value)
    assert env.get_rate("AICD_TEST_RATE", "1/min") == value


@pytest.mark.parametrize(
    "value", ["lots", "0/min", "-1/min", "60/fortnight", "60", "/min", "6 0/min"]
)
def test_rate_parser_rejects_anything_else(monkeypatch, value) -> None:
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setenv("AICD_TEST_RATE", value)
    with pytest.raises(ImproperlyConfigured, match="AICD_TEST_RATE"):
        env.get_rate("AICD_TEST_RATE", "1/min")
