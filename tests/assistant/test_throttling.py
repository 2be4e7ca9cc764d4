"""Per-user chat throttling: 429 with Retry-After and the CONTRACT error body, API and page alike."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

URL = "/api/source-grounded-chat"
QUESTION = {"question": "who owns each stage gate?"}


@pytest.fixture(autouse=True)
def two_per_minute(monkeypatch):
    # DRF binds the rates dict to the throttle class at import, so patch it there.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"chat": "2/min", "uploads": "2/min"})
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
def test_third_chat_call_in_a_minute_is_429_with_retry_after(api_client) -> None:
    for _ in range(2):
        assert api_client.post(URL, QUESTION, format="json").status_code == 200
    response = api_client.post(URL, QUESTION, format="json")
    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 60
    assert response.json() == {
        "error": {
            "code": "throttled",
            "message": f"Too many requests. Retry in {retry_after} seconds.",
        }
    }


@pytest.mark.django_db
def test_throttle_is_per_user(api_client, django_user_model) -> None:
    for _ in range(3):
        api_client.post(URL, QUESTION, format="json")
    other = APIClient()
    other.force_authenticate(django_user_model.objects.create_user("omar", password="x-y-z-123456"))
    assert other.post(URL, QUESTION, format="json").status_code == 200


@pytest.mark.django_db
def test_rejected_input_counts_too(api_client) -> None:
    for _ in range(2):
        assert api_client.post(URL, {}, format="json").status_code == 400
    assert api_client.post(URL, QUESTION, format="json").status_code == 429


@pytest.mark.django_db
def test_chat_page_shares_the_chat_scope_and_renders_a_429_page(logged_in_client) -> None:
    form = {"mode": "package_only", "question": "who owns each stage gate?"}
    assert logged_in_client.post("/", form, follow=True).status_code == 200
    assert logged_in_client.post(URL, QUESTION, content_type="application/json").status_code == 200
    response = logged_in_client.post("/", form, follow=True)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 60
    assert "Too many requests" in response.content.decode()
    # Reading the page is not throttled; only running the pipeline is.
    assert logged_in_client.get("/").status_code == 200
