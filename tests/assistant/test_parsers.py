"""Request bodies that used to escape DRF's error handling: deep nesting and oversized bodies."""

from __future__ import annotations

import pytest

URL = "/api/source-grounded-chat"


@pytest.mark.django_db
@pytest.mark.parametrize("raw", [b"[" * 50_000, b'{"question": ' + b"{" * 20_000 + b"}"])
def test_deeply_nested_json_is_malformed_json_not_a_500(api_client, raw) -> None:
    response = api_client.post(URL, raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


@pytest.mark.django_db
def test_oversized_body_is_a_413_contract_error(api_client, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = api_client.post(URL, {"question": "a" * 2000}, format="json")
    assert response.status_code == 413
    assert response.json() == {
        "error": {
            "code": "request_too_large",
            "message": "The request body is larger than the 1000-byte limit.",
        }
    }
