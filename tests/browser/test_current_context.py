"""Package + current context with the real allow-listed adapter and a local registry, in a browser.

Runs once the ``allowlisted_public_fetch`` adapter module exists (skipped only when it does not).
The registry points at a listener on loopback that counts every TCP connection: neither the
browser nor the server may ever connect to it (the browser never fetches current sources; the
server's SSRF guard refuses loopback), and the page must say why nothing was retrieved.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pytest.importorskip(
    "assistant.current.allowlisted",
    reason="the allowlisted_public_fetch adapter module (branch `current`) is not in this tree",
)


class ConnectionCounter:
    """A loopback TCP listener that accepts, counts and closes every connection."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def loopback_source() -> Iterator[ConnectionCounter]:
    counter = ConnectionCounter()
    yield counter
    counter.close()


def test_real_adapter_never_reaches_a_loopback_source(
    session, browser_reviewer, settings, loopback_source
) -> None:
    origin = f"https://localhost:{loopback_source.port}"
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = json.dumps(
        {
            "sources": [
                {
                    "id": "local-stage-gates",
                    "title": "Local stage-gate note",
                    "url": f"{origin}/guidance/stage-gates",
                    "allowed_origin": origin,
                    "allowed_path_prefix": "/guidance/",
                    "source_type": "documentation",
                    "trust_label": "documentation",
                    "freshness_label": "current",
                    "claim_boundary": "Test source only.",
                    "query_terms": ["stage", "gate", "owner"],
                }
            ]
        }
    )
    session.sign_in("rita", PASSWORD)
    session.ask("who owns each stage gate?", mode_label="Package + current context")
    page = session.page
    assert page.locator("#current-status").get_attribute("data-current-state") != "retrieved"
    page.locator("details.run-details summary").click()
    assert "Current/public context" in page.locator("details.run-details").inner_text()
    assert page.locator('.notice[data-pattern="no_current_source_support"]').count() == 1
    assert page.locator("section.citations-current").count() == 0
    session.screenshot("current-local-registry")
    assert loopback_source.connections == 0
    session.assert_clean()


def test_real_adapter_retrieves_from_a_local_https_source_and_the_browser_never_contacts_it(
    session, browser_reviewer, settings, monkeypatch
) -> None:
    """The retrieved state end to end: registry, TLS fetch, snippet, lanes, a current group.

    The fixture server (from the `current` branch's tests) answers for a public-looking host name
    over TLS with a throwaway CA; the fetcher is built with a resolver double and a peer policy
    that admits 127.0.0.1, constructor arguments no setting can reach.
    """
    source_server = pytest.importorskip(
        "tests.assistant.source_server",
        reason="the TLS source fixture (branch `current`) is absent",
    )
    import ipaddress

    from assistant.current.allowlisted import AllowlistedPublicFetchAdapter
    from assistant.current.fetch import Fetcher
    from registry_review.validation import validate_registry_text

    page = (
        b"<!doctype html><html><head><title>Stage gates</title></head><body><main>"
        b"<p>Each stage gate has a named owner who records the decision and its evidence.</p>"
        b"</main></body></html>"
    )
    with source_server.running_source_server() as server:
        server.routes["/guide/stage-gates"] = lambda handler: source_server.send(handler, page)
        ports = frozenset({server.port})
        registry = json.dumps(
            {
                "sources": [
                    {
                        "id": "fixture-stage-gates",
                        "title": "Fixture stage-gate guide",
                        "url": server.url("/guide/stage-gates"),
                        "allowed_origin": server.origin,
                        "allowed_path_prefix": "/guide",
                        "source_type": "public guide",
                        "trust_label": "standards",
                        "freshness_label": "Reviewed quarterly",
                        "claim_boundary": "Test context only.",
                        "query_terms": ["stage gate"],
                    }
                ]
            }
        )
        adapter = AllowlistedPublicFetchAdapter(
            fetcher=Fetcher(
                resolver=lambda host, port: ["127.0.0.1"],
                peer_allowed=lambda ip: ip == ipaddress.ip_address("127.0.0.1"),
                ssl_context=server.client_ssl_context,
                allowed_ports=ports,
            ),
            registry=lambda: validate_registry_text(
                registry, production=False, allowed_ports=ports
            ),
        )
        settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
        monkeypatch.setattr("assistant.pipeline.services.get_adapter", lambda: adapter)

        session.sign_in("rita", PASSWORD)
        session.ask("who owns each stage gate?", mode_label="Package + current context")
        page_ = session.page
        current = page_.locator("section.citations-current li.citation")
        assert current.count() == 1
        session.open_citations()
        assert server.url("/guide/stage-gates") in current.inner_text()
        assert "named owner who records the decision" in current.inner_text()
        assert page_.get_by_role("region", name="Current/public source says").is_visible()
        session.screenshot("current-retrieved-real-adapter")
        # One server-side GET, without cookies; nothing from the browser.
        assert [(r["method"], r["path"]) for r in server.seen] == [("GET", "/guide/stage-gates")]
        assert "cookie" not in server.seen[0]
    assert not any(source_server.SOURCE_HOST in url for url in session.requests)
    session.assert_clean()
