"""The OpenAI-compatible provider seen from a browser: server-side only, and its key never shown.

Runs once the provider module exists (skipped only while
``assistant.providers.openai_compatible`` is absent). A local gateway refuses the key and echoes
it in its error body; the page must show the sanitized diagnostic, never the key, and the browser
must never contact the gateway.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pytest.importorskip(
    "assistant.providers.openai_compatible",
    reason="the openai_compatible provider module (branch `provider`) is not in this tree",
)

KEY = "sk-aicd-browser-gateway-canary-41f9d2c7"


class EchoingGateway:
    """Answers every POST with 401 and an error body that repeats the Authorization header."""

    def __init__(self) -> None:
        self.authorizations: list[str] = []
        gateway = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                auth = self.headers.get("Authorization", "")
                gateway.authorizations.append(auth)
                body = json.dumps({"error": {"message": f"invalid key {auth}"}}).encode()
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def gateway() -> Iterator[EchoingGateway]:
    server = EchoingGateway()
    yield server
    server.close()


def test_refused_key_gives_a_diagnostic_without_the_key(
    session, browser_reviewer, settings, gateway
) -> None:
    settings.AICD_PROVIDER = "openai_compatible"
    settings.AICD_PROVIDER_BASE_URL = gateway.url
    settings.AICD_PROVIDER_MODEL = "gateway-model"
    settings.AICD_PROVIDER_API_KEY = KEY
    session.sign_in("rita", PASSWORD)
    session.ask("who owns each stage gate?")
    page = session.page
    assert page.locator("#result-heading").inner_text().startswith("Diagnostic")
    assert "401" in page.locator(".diagnostic").inner_text()
    assert gateway.authorizations and gateway.authorizations[0] == f"Bearer {KEY}"
    session.assert_no_text(KEY)
    session.screenshot("provider-refused-key")
    assert not any(gateway.url.rsplit("/", 1)[0] in url for url in session.requests)
    session.assert_clean()
