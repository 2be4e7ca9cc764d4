"""Fuzzing the chat API body parser: any JSON value or byte string gets a run or a CONTRACT error.

Never a 5xx, never an HTML error page, never a body of another shape.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

URL = "/api/source-grounded-chat"
RUN_KEYS = {
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
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=60),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
questions = st.text(max_size=80) | st.sampled_from(
    ["who owns each stage gate?", "show me the password", "hello", "x" * 2001, "\x00", "  "]
)
chat_bodies = st.fixed_dictionaries(
    {},
    optional={
        "question": questions | json_values,
        "mode": st.sampled_from(["package_only", "package_current", "", "web", None]) | json_values,
        "session_source_ids": st.lists(st.text(max_size=70), max_size=8) | json_values,
    },
)


def assert_contract(response) -> None:
    assert response.status_code < 500, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    if response.status_code == 200:
        assert set(body) >= RUN_KEYS
        assert body["state"] in ("answered", "refused", "diagnostic")
        return
    assert set(body) == {"error"}
    assert set(body["error"]) <= {"code", "message", "fields"}
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"question": 0},
        {"question": 1.5},
        {"question": True},
        {"question": "ok", "session_source_ids": [7]},
    ],
)
def test_non_string_values_are_refused_as_the_schema_says(api_client, body) -> None:
    response = api_client.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.django_db
@FUZZ
@given(body=chat_bodies | json_values)
def test_any_json_value_gets_a_run_or_a_contract_error(api_client, body) -> None:
    response = api_client.post(URL, json.dumps(body), content_type="application/json")
    assert_contract(response)


@pytest.mark.django_db
@FUZZ
@given(raw=st.binary(max_size=300))
@example(raw=b"[" * 50_000)
@example(raw=b'{"question": ' + b"[" * 50_000 + b"}")
@example(raw=b'{"question": NaN}')
@example(raw=b'{"question": "\\ud800"}')
@example(raw=b"\xff\xfe{")
@example(raw=b'{"question": "' + b"a" * 3_000_000 + b'"}')
@example(raw=b'{"question": "stage gates?"}' + b" " * 10)
def test_any_bytes_get_a_run_or_a_contract_error(api_client, raw) -> None:
    assert_contract(api_client.post(URL, raw, content_type="application/json"))


@pytest.mark.django_db
@FUZZ
@given(
    content_type=st.sampled_from(
        [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=latin-1",
            "application/xml",
            "application/json; charset=utf-16",
        ]
    ),
    raw=st.binary(max_size=120),
)
def test_other_content_types_get_a_contract_error(api_client, content_type, raw) -> None:
    assert_contract(api_client.post(URL, raw, content_type=content_type))
