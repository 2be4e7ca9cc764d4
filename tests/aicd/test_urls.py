"""Every URL the project routes requires sign-in, except the sign-in pages, the signed-out page and the probes; admin is staff-only."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

# The two health probes are anonymous on purpose (a load balancer has no account); the signed-out
# page is where sign-out lands, so it cannot require a session; it shows no data.
PUBLIC = {"accounts/login/", "admin/login/", "accounts/signed-out/", "api/health", "api/ready"}
# Sample paths for regex routes; a new regex route without a sample fails the audit on purpose.
REGEX_SAMPLES = {
    "admin/^(?P<app_label>auth|authtoken)/$": "admin/auth/",
    "admin/(?P<url>.*)$": "admin/no-such-page/",
    "^api/": "api/no-such-endpoint",
}
_CONVERTER = re.compile(r"<(?:(?P<converter>\w+):)?\w+>")
# A value each path converter accepts, so the sample reaches the view instead of the resolver's 404.
CONVERTER_SAMPLES = {"uuid": "00000000-0000-4000-8000-000000000001", "slug": "md"}


def _routes(patterns: list, prefix: str = "") -> Iterator[str]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        else:
            assert isinstance(p, URLPattern)
            yield prefix + str(p.pattern)


def _sample(route: str) -> str:
    if route in REGEX_SAMPLES:
        return "/" + REGEX_SAMPLES[route]
    assert not any(ch in route for ch in "^$("), f"add a sample path for the regex route {route!r}"
    return "/" + _CONVERTER.sub(lambda m: CONVERTER_SAMPLES.get(m["converter"] or "", "1"), route)


def _is_refused(response, path: str) -> bool:
    if response.status_code in (401, 403):
        return True
    if response.status_code == 302:
        return response["Location"].startswith(("/accounts/login/", "/admin/login/"))
    return False


ROUTES = sorted(set(_routes(get_resolver().url_patterns)))


def test_the_audit_sees_every_front_door() -> None:
    for expected in ("", "html/", "api/source-grounded-chat", "api/schema/", "api/docs/", "admin/"):
        assert expected in ROUTES


@pytest.mark.django_db
@pytest.mark.parametrize("route", [r for r in ROUTES if r not in PUBLIC])
def test_anonymous_is_refused_everywhere(route: str) -> None:
    client = Client()
    path = _sample(route)
    for method, response in (
        ("GET", client.get(path)),
        # A JSON body, so views that vet the media type before authenticating still answer the
        # question asked here: who are you?
        ("POST", client.post(path, "{}", content_type="application/json")),
    ):
        assert _is_refused(response, path), f"{method} {path} -> {response.status_code}"


@pytest.mark.django_db
def test_schema_and_docs_query_variants_are_refused_too() -> None:
    client = Client()
    for path in ("/api/docs/?script=", "/api/schema/?format=json", "/api/schema/?format=yaml"):
        assert _is_refused(client.get(path), path), path


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(PUBLIC))
def test_sign_in_pages_are_public(path: str) -> None:
    assert Client().get("/" + path).status_code == 200


@pytest.mark.django_db
def test_admin_is_staff_only(client, django_user_model) -> None:
    client.force_login(django_user_model.objects.create_user("rita", password="x-y-z-123456"))
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert client.get("/admin/auth/user/").status_code == 302
    client.force_login(
        django_user_model.objects.create_user("ada", password="x-y-z-123456", is_staff=True)
    )
    assert client.get("/admin/").status_code == 200
    # Staff without model permissions still cannot read accounts; superusers can.
    assert client.get("/admin/auth/user/").status_code == 403
    client.force_login(django_user_model.objects.create_superuser("root", password="x-y-z-123456"))
    assert client.get("/admin/auth/user/").status_code == 200


def test_route_samples_are_not_stale() -> None:
    assert set(REGEX_SAMPLES) <= set(ROUTES)


def test_public_static_files_are_only_assets() -> None:
    """Static files are served to anyone (the sign-in page needs its CSS), so they hold no data."""
    from pathlib import Path

    from django.conf import settings

    files = [p for d in settings.STATICFILES_DIRS for p in Path(d).rglob("*") if p.is_file()]
    assert files
    assert {p.suffix for p in files} <= {".css", ".js", ".png", ".svg", ".ico", ".woff2"}
