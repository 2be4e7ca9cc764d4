"""The OpenAPI schema: served to signed-in users and token clients, and honoured by the live API.

The Schemathesis run generates valid and invalid requests for every operation in the schema and
sends them to a live server authenticated with a DRF token: no response may be a 5xx, and every
response must match its documented status, content type and body schema.
"""

from __future__ import annotations

import pytest
import requests
import schemathesis
from django.contrib.auth.models import Permission
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
EXAMPLES_PER_MODE = 40
ANONYMOUS_PROBES = {"/api/health", "/api/ready"}


@pytest.mark.django_db
def test_schema_documents_the_chat_api(api_client) -> None:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    operation = schema["paths"]["/api/source-grounded-chat"]["post"]
    assert set(operation["responses"]) >= {"200", "400", "401", "403", "413", "415", "429"}
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    chat_input = schema["components"]["schemas"][body.rsplit("/", 1)[-1]]
    assert chat_input["required"] == ["question"]
    run = schema["components"]["schemas"]["Run"]
    assert set(run["required"]) >= {"run_id", "state", "lanes", "citations", "telemetry"}
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])


@pytest.mark.django_db
def test_schema_is_refused_without_credentials() -> None:
    response = APIClient().get("/api/schema/")
    assert response.status_code in (401, 403)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_no_5xx_and_no_schema_drift(live_server, django_user_model) -> None:
    user = django_user_model.objects.create_user("integrator", password="x-y-z-123456")
    # Fuzz permission-gated endpoints as a user allowed to use them, once the permission exists
    # (a permission, not the "Source owners" group: transactional tests flush data migrations).
    user.user_permissions.add(*Permission.objects.filter(codename="review_registry"))
    key = Token.objects.create(user=user).key
    auth = {"Authorization": f"Token {key}"}
    http = requests.Session()
    http.trust_env = False  # never route the loopback server through an environment proxy
    try:
        _run_schemathesis(live_server.url, http, auth)
    finally:
        # Close keep-alive sockets now, while the live server still shares its DB connection.
        http.close()


def _run_schemathesis(base_url: str, http: requests.Session, auth: dict[str, str]) -> None:
    served = http.get(
        f"{base_url}/api/schema/",
        headers={**auth, "Accept": "application/vnd.oai.openapi+json"},
        timeout=30,
    )
    assert served.status_code == 200
    schema = schemathesis.openapi.from_dict(served.json())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert any(op.path == "/api/source-grounded-chat" for op in operations)
    seen_statuses: set[int] = set()

    for operation in operations:
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):

            @settings(
                max_examples=EXAMPLES_PER_MODE,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
            )
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case) -> None:
                response = case.call(base_url=base_url, session=http, headers=auth)
                seen_statuses.add(response.status_code)
                case.validate_response(response, checks=CHECKS, headers=auth)

            try:
                run()
            except Unsatisfiable:
                # Only possible for negative mode: nothing in the operation (no parameters, an
                # unconstrained body) can be made invalid, so there is no invalid request to send.
                assert mode is schemathesis.GenerationMode.NEGATIVE, operation.label

        # The same operation without credentials is refused (what Schemathesis's ignored_auth
        # check means, done directly because the token here is a plain header, not a schema auth).
        # The health probes are the exception: anonymous by design, for load balancers.
        bare = http.request(operation.method.upper(), f"{base_url}{operation.path}", timeout=30)
        expected = {200} if operation.path in ANONYMOUS_PROBES else {401, 403}
        assert bare.status_code in expected, operation.label

    assert 200 in seen_statuses and 400 in seen_statuses


def _routed_api_methods():
    """(OpenAPI path, view class, method) of every API view method the URLconf routes."""
    import re

    from django.urls import get_resolver
    from rest_framework.views import APIView

    from aicd.api_not_found import ApiNotFoundView

    def walk(patterns, prefix=""):
        for p in patterns:
            route = prefix + str(p.pattern)
            if hasattr(p, "url_patterns"):
                yield from walk(p.url_patterns, route)
            else:
                yield "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route), p.callback

    for path, callback in walk(get_resolver().url_patterns):
        cls = getattr(callback, "cls", None)
        if cls is None or not issubclass(cls, APIView) or cls is ApiNotFoundView:
            continue  # the /api/ fallback is every unknown path, not an operation
        for method in cls.http_method_names:
            if method not in ("options", "head") and hasattr(cls, method):
                yield path, cls, method


@pytest.mark.django_db
def test_every_api_method_is_documented_and_the_schema_carries_it(api_client) -> None:
    """Every routed API method carries @extend_schema, and the schema has its operation."""
    routed = list(_routed_api_methods())
    assert len(routed) >= 7
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path, cls, method in routed:
        handler = getattr(cls, method)
        assert "schema" in getattr(handler, "kwargs", {}), (
            f"{cls.__name__}.{method} has no @extend_schema"
        )
        operation = schema["paths"][path][method]
        assert operation["responses"], f"{path} {method}"
        if method in ("post", "put", "patch"):
            assert "requestBody" in operation, f"{path} {method}"
