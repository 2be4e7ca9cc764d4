"""Package + current context through the one pipeline, the API and the chat page.

Retrieved runs fetch from a real HTTPS server on 127.0.0.1 (a resolver double maps the
registry's public-looking host there); nothing here contacts a non-loopback address.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from pathlib import Path

import pytest

from assistant.current import allowlisted, base
from assistant.current.fetch import Fetcher
from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.pipeline import services
from tests.assistant.source_server import running_source_server, send

TEMPLATE = Path(__file__).resolve().parents[2] / "docs" / "current_source_registry_template.json"
NIST_ID = "nist-ai-rmf-public-framework-candidate"
#: The shipped template's aliases for the NIST record (registry data, not code).
NIST_ALIASES = json.loads(TEMPLATE.read_text())["sources"][0]["query_aliases"]
NIST_QUESTION = "How does the playbook relate to the NIST AI RMF?"
NIST_PAGE = (
    b"<html><head><title>Framework</title></head><body><nav>Menu</nav><main>"
    b"<h1>Public AI risk framework</h1>"
    b"<p>The public framework organises AI risk work into four functions: govern, map, measure and manage.</p>"
    b"<p>Organisations adopt the framework voluntarily and adapt it to their own context.</p>"
    b"</main></body></html>"
)
CONFLICT_QUESTION = "When should risk identification start for an AI capability?"
CONFLICT_PAGE = (
    b"<html><body><main><p>This public note discusses AI risk practice for product teams.</p>"
    b"<p>Risk identification does not need to be repeated at every stage gate once a risk register exists.</p>"
    b"</main></body></html>"
)
API = "/api/source-grounded-chat"


@pytest.fixture(scope="module")
def server():
    with running_source_server() as srv:
        yield srv


@pytest.fixture
def configured(server, settings, monkeypatch):
    """Turn on allowlisted_public_fetch with a registry pointing at the loopback server."""
    server.routes.clear()
    server.seen.clear()

    def configure(
        *,
        path: str = "/itl/ai-risk-management-framework",
        source_id: str = NIST_ID,
        page: bytes = NIST_PAGE,
        **fields: object,
    ) -> None:
        server.routes[path] = lambda h: send(h, page)
        rec = {
            "id": source_id,
            "title": "Public AI risk framework (fixture)",
            "url": server.url(path),
            "allowed_origin": server.origin,
            "allowed_path_prefix": path,
            "source_type": "public framework page",
            "trust_label": "standards",
            "freshness_label": "Reviewed quarterly",
            "claim_boundary": "Public framework context only; approves nothing.",
            "query_terms": ["risk identification"],
            **({"query_aliases": NIST_ALIASES} if source_id == NIST_ID else {}),
            **fields,
        }
        settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
        settings.AICD_CURRENT_CONTEXT_ALLOWED_PORTS = (server.port,)
        settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = json.dumps({"sources": [rec]})
        loopback = ipaddress.ip_address("127.0.0.1")
        monkeypatch.setattr(
            allowlisted,
            "default_fetcher",
            lambda: Fetcher(
                resolver=lambda host, port: ["127.0.0.1"],
                peer_allowed=lambda ip: (
                    ip == loopback
                ),  # test-only: loopback stands in for the public host
                ssl_context=server.client_ssl_context,
                allowed_ports=frozenset({server.port}),
            ),
        )

    return configure


class ExplodingAdapter(base.BaseCurrentContextAdapter):
    name = "exploding"

    def retrieve(self, *, question, package_rows):
        pytest.fail("the current-context adapter was called, but this run must be refused first")


def labels(run) -> list[str]:
    return [lane.label for lane in run.lanes]


# ------------------------------------------------------------------------------ refuse first
@pytest.mark.parametrize(
    "question",
    [
        "What is the best sourdough recipe?",
        "What does the playbook say about quantum key distribution satellites?",
    ],
)
def test_no_package_support_calls_neither_adapter_nor_provider(question, exploding_provider):
    run = services.answer(
        question=question,
        mode=Mode.PACKAGE_CURRENT,
        provider=exploding_provider,
        adapter=ExplodingAdapter(),
    )
    assert run.state == "refused"
    assert run.current_context.state == base.SKIPPED
    assert "retrieval_skipped" in run.telemetry["behaviors"]


@pytest.mark.django_db
def test_api_refusal_never_reaches_adapter_or_provider(
    api_client, monkeypatch, settings, exploding_provider
):
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    monkeypatch.setattr(services, "get_adapter", lambda: ExplodingAdapter())
    monkeypatch.setattr(services, "get_provider", lambda: exploding_provider)
    body = api_client.post(
        API, {"question": "Write me a poem about NIST", "mode": "package_current"}, format="json"
    ).json()
    assert body["state"] == "refused" and body["current_context"]["state"] == "skipped"


# ------------------------------------------------------------------ not retrieved: package-first
def _assert_package_first(run, state: str) -> None:
    assert run.state == "answered"
    assert run.current_context.state == state
    assert labels(run) == [
        lanes.PACKAGE_SAYS,
        lanes.CURRENT_SAYS,
        lanes.SYNTHESIS,
        lanes.DIVERGENCE,
    ]
    assert run.lanes[1].text == lanes.CURRENT_NOT_RETRIEVED
    assert run.lanes[3].text == lanes.DIVERGENCE_FALLBACK
    assert run.citations_of_class(lanes.CURRENT_CITATION) == []
    assert [n.pattern for n in run.notices] == ["no_current_source_support"]


def test_disabled_by_default_answers_package_first(settings):
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "disabled"
    _assert_package_first(
        services.answer(question=NIST_QUESTION, mode=Mode.PACKAGE_CURRENT), base.DISABLED
    )


@pytest.mark.parametrize(
    "registry", ["", '{"sources": []}', "{not json", '{"sources": [{"id": "x"}]}']
)
def test_no_usable_registry_is_unconfigured(settings, registry):
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = registry
    run = services.answer(question=NIST_QUESTION, mode=Mode.PACKAGE_CURRENT)
    _assert_package_first(run, base.UNCONFIGURED)
    assert "unusable" in run.current_context.detail


def test_the_shipped_template_without_network_fails_closed_before_any_packet(settings, monkeypatch):
    """No internet here: the resolver fails, and no socket is ever opened to anything."""
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = TEMPLATE.read_text()
    lookups: list[tuple[object, ...]] = []

    def offline_getaddrinfo(host, port, *args, **kwargs):
        lookups.append((host, port))
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    def no_socket(*args, **kwargs):
        pytest.fail("a socket connection was attempted")

    monkeypatch.setattr(socket, "getaddrinfo", offline_getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", no_socket)
    monkeypatch.setattr(socket.socket, "connect", no_socket)
    run = services.answer(question=NIST_QUESTION, mode=Mode.PACKAGE_CURRENT)
    _assert_package_first(run, base.FAIL_CLOSED)
    assert lookups == [("www.nist.gov", 443)]
    assert f"{NIST_ID}: could not resolve www.nist.gov" in run.current_context.detail
    assert "current_retrieval" in run.telemetry["behaviors"]
    assert run.telemetry["external_retrieval_count"] == 0


def test_unmatched_question_is_not_retrieved(configured, server):
    configured(source_id="risk-identification-guide", query_terms=["risk identification"])
    run = services.answer(
        question="How should the risk register be maintained?", mode=Mode.PACKAGE_CURRENT
    )
    _assert_package_first(run, base.NOT_RETRIEVED)
    assert server.seen == []


# --------------------------------------------------------------------------------- retrieved
def test_retrieved_run_has_four_lanes_and_separate_citation_classes(configured, server):
    configured(query_terms=[])
    run = services.answer(question=NIST_QUESTION, mode=Mode.PACKAGE_CURRENT)
    assert run.state == "answered", run.diagnostic
    assert run.current_context.state == base.RETRIEVED
    assert labels(run) == [
        lanes.PACKAGE_SAYS,
        lanes.CURRENT_SAYS,
        lanes.SYNTHESIS,
        lanes.DIVERGENCE,
    ]
    package_lane, current_lane, synthesis, divergence = run.lanes
    assert package_lane.citation_ids and all(c.startswith("P") for c in package_lane.citation_ids)
    assert current_lane.citation_ids == ("C1",)
    assert "four functions: govern, map, measure and manage" in current_lane.text
    assert set(synthesis.citation_ids) == {"P1", "C1"}
    assert divergence.text == lanes.DIVERGENCE_FALLBACK
    assert run.notices == ()
    (c1,) = run.citations_of_class(lanes.CURRENT_CITATION)
    body = c1.to_dict()
    assert body["id"] == "C1" and body["citation_class"] == "current/public citation"
    assert body["url"] == server.url("/itl/ai-risk-management-framework")
    assert body["source_type"] == "public framework page"
    assert body["trust_label"] == "standards" and body["freshness_label"] == "Reviewed quarterly"
    assert body["retrieved_at"].endswith("+00:00")
    assert body["claim_boundary"] == "Public framework context only; approves nothing."
    assert len(body["excerpt"]) <= allowlisted.MAX_SNIPPET_CHARS
    assert all(
        c.citation_class == lanes.PACKAGE_CITATION for c in run.citations if c.id.startswith("P")
    )
    assert (
        run.telemetry["current_refs_selected"] == 1
        and run.telemetry["external_retrieval_count"] == 1
    )
    assert "current_retrieval" in run.telemetry["behaviors"]


@pytest.mark.django_db
def test_retrieved_run_through_the_api(configured, api_client):
    configured()
    body = api_client.post(
        API, {"question": NIST_QUESTION, "mode": "package_current"}, format="json"
    ).json()
    assert body["state"] == "answered"
    assert body["current_context"] == {
        "adapter": "allowlisted_public_fetch",
        "state": "retrieved",
        "detail": f"Retrieved 1 current/public source(s) from the owner-approved registry: {NIST_ID}.",
    }
    assert [lane["label"] for lane in body["lanes"]] == list(
        lanes.required_lanes(Mode.PACKAGE_CURRENT, with_uploads=False)
    )
    classes = {c["id"][0]: c["citation_class"] for c in body["citations"]}
    assert classes == {"P": "package citation", "C": "current/public citation"}
    assert body["telemetry"]["citation_class_counts"]["current/public citation"] == 1


@pytest.mark.django_db
def test_retrieved_run_on_the_chat_page(configured, logged_in_client):
    configured()
    html = logged_in_client.post(
        "/", {"question": NIST_QUESTION, "mode": "package_current"}, follow=True
    ).content.decode()
    assert 'data-current-state="retrieved"' in html
    assert 'data-citation-class="package citation"' in html
    assert 'data-citation-class="current/public citation"' in html
    assert "Current/public sources are not package authority." in html
    assert "trust: standards" in html and "freshness: Reviewed quarterly" in html
    for label in (
        "Package says",
        "Current/public source says",
        "Synthesis / implications",
        "Divergence / update candidate",
    ):
        assert f'aria-label="{label}"' in html
    assert 'class="cite cite-current" href="#cite-C1"' in html
    assert "<script>" not in html.split("<main", 1)[1]


@pytest.mark.django_db
def test_chat_page_shows_the_adapter_state_when_not_retrieved(logged_in_client, settings):
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = ""
    html = logged_in_client.post(
        "/", {"question": NIST_QUESTION, "mode": "package_current"}, follow=True
    ).content.decode()
    assert 'data-current-state="unconfigured"' in html
    assert 'data-citation-class="current/public citation"' not in html
    assert lanes.CURRENT_NOT_RETRIEVED in html


# ------------------------------------------------------------------ conflict, stale and weak
def test_package_current_conflict_uses_the_conflict_shape(configured):
    configured(path="/guides/risk", source_id="risk-identification-guide", page=CONFLICT_PAGE)
    run = services.answer(question=CONFLICT_QUESTION, mode=Mode.PACKAGE_CURRENT)
    assert run.state == "answered", run.diagnostic
    assert [n.pattern for n in run.notices] == ["package_current_conflict"]
    package_lane, current_lane, synthesis, divergence = run.lanes
    assert (
        "Risk identification should start early and be repeated at every stage gate"
        in package_lane.text
    )
    assert "does not need to be repeated at every stage gate" in current_lane.text
    assert divergence.text.startswith("Conflict: on the shared terms")
    assert "Decision needed:" in divergence.text
    p = next(cid for cid in divergence.citation_ids if cid.startswith("P"))
    assert "C1" in divergence.citation_ids and f"[{p}]" in package_lane.text
    assert {p, "C1"} <= set(synthesis.citation_ids)
    assert "not source evidence" in synthesis.text


@pytest.mark.parametrize(
    "fields",
    [
        {"trust_label": "community"},
        {"trust_label": "unknown"},
        {"freshness_label": "Stale: last reviewed 2021"},
    ],
)
def test_stale_or_weak_sources_add_the_notice(configured, fields):
    configured(**fields)
    run = services.answer(question=NIST_QUESTION, mode=Mode.PACKAGE_CURRENT)
    assert run.current_context.state == base.RETRIEVED
    assert [n.pattern for n in run.notices] == ["stale_or_weak_current_source"]


def test_fetch_failure_through_the_pipeline_is_fail_closed(configured, server):
    configured()
    server.routes["/itl/ai-risk-management-framework"] = lambda h: send(
        h, b"%PDF-1.7", content_type="application/pdf"
    )
    run = services.answer(question=NIST_QUESTION, mode=Mode.PACKAGE_CURRENT)
    _assert_package_first(run, base.FAIL_CLOSED)
    assert "unsupported content type 'application/pdf'" in run.current_context.detail


def test_package_only_mode_never_calls_the_adapter(configured):
    configured()
    run = services.answer(
        question=NIST_QUESTION, mode=Mode.PACKAGE_ONLY, adapter=ExplodingAdapter()
    )
    assert run.current_context.state == base.SKIPPED
    assert labels(run)[0] == lanes.PACKAGE_SAYS and lanes.CURRENT_SAYS not in labels(run)
