"""A real HTTPS server on 127.0.0.1 for current-context tests, with a throwaway test CA (trustme).

Every response body is written by the test's own route function, so each byte a test reads is
explained by the test. Nothing here ever contacts a non-loopback address.
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import trustme

SOURCE_HOST = "guidance.aicd-fixture-source.org"

Route = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class SourceServer:
    port: int
    client_ssl_context: ssl.SSLContext
    routes: dict[str, Route]
    seen: list[dict[str, str]] = field(default_factory=list)
    ca_pem: bytes = b""  # the throwaway CA, for tests that hand it to the fetcher another way

    @property
    def origin(self) -> str:
        return f"https://{SOURCE_HOST}:{self.port}"

    def url(self, path: str) -> str:
        return self.origin + path


def send(
    handler: BaseHTTPRequestHandler,
    body: bytes,
    *,
    status: int = 200,
    content_type: str | None = "text/html; charset=utf-8",
    headers: dict[str, str] | None = None,
) -> None:
    handler.send_response(status)
    if content_type is not None:
        handler.send_header("Content-Type", content_type)
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    if "Content-Length" not in (headers or {}):
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@contextmanager
def running_source_server() -> Iterator[SourceServer]:
    ca = trustme.CA()
    server_cert = ca.issue_cert(SOURCE_HOST)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_cert.configure_cert(server_context)
    client_context = ssl.create_default_context()
    ca.configure_trust(client_context)
    routes: dict[str, Route] = {}
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # keep test output quiet
            pass

        def _dispatch(self) -> None:
            seen.append(
                {
                    "method": self.command,
                    "path": self.path,
                    **{k.lower(): v for k, v in self.headers.items()},
                }
            )
            route = routes.get(self.path.split("?", 1)[0])
            if route is None:
                send(self, b"not found", status=404, content_type="text/plain")
                return
            route(self)

        do_GET = _dispatch
        do_POST = _dispatch
        do_HEAD = _dispatch

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.socket = server_context.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield SourceServer(
            httpd.server_address[1], client_context, routes, seen, ca.cert_pem.bytes()
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
