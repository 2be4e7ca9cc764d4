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
    page.locator("details.run-summary summary").click()
    summary = page.locator("details.run-summary").inner_text()
    assert "allowlisted_public_fetch ·" in summary
    assert "· retrieved" not in summary
    assert page.locator('.notice[data-pattern="no_current_source_support"]').count() == 1
    assert page.locator("section.citations-current").count() == 0
    session.screenshot("current-local-registry")
    assert loopback_source.connections == 0
    session.assert_clean()
