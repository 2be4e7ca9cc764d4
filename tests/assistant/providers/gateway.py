"""A real OpenAI-compatible HTTP server on loopback (stdlib http.server), scripted per test.

Each request takes the next reply from the script (or the default reply) and is recorded with
its headers, body and arrival time, so tests can assert both what the app sent and what it did
with the answer. Nothing here is a mocked transport: the provider talks HTTP over a socket.
"""

from __future__ import annotations

import json
import re
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def user_message(self) -> str:
        return self.json["messages"][1]["content"]

    def source_text(self, citation_id: str) -> str:
        """The text the app sent as source ``citation_id`` (between its fences)."""
        head = re.search(rf"^<<<SOURCE {citation_id} \|[^\n]*\n", self.user_message, re.M)
        assert head is not None, f"{citation_id} was not sent"
        return self.user_message[head.end() :].split(f"\n>>>END SOURCE {citation_id}\n", 1)[0]

    def first_sentence(self, citation_id: str) -> str:
        """A quotable sentence of source ``citation_id``: its first line of prose, first sentence."""
        for line in self.source_text(citation_id).splitlines():
            line = line.strip().lstrip("-* ")
            if len(line) > 30 and " | " not in line and not line.endswith(":"):
                return re.split(r"(?<=[.!?])\s+(?=[A-Z])", line)[0]
        raise AssertionError(f"no quotable sentence in {citation_id}")

    def sent_ids(self, prefix: str) -> list[str]:
        """Citation ids of the sources the app sent, read from the source fences."""
        return re.findall(rf"^<<<SOURCE ({prefix}\d+) \|", self.user_message, re.M)


Reply = Callable[["_Handler", Received], None]


class LoopbackGateway:
    """One scripted server on 127.0.0.1 with an ephemeral port."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[Received] = []
        self.script: list[Reply] = []
        self.default: Reply | None = None
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"gateway": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.scheme = "http"
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"{self.scheme}://{host}:{port}"

    def start(self) -> LoopbackGateway:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()

    def then(self, *replies: Reply) -> LoopbackGateway:
        self.script.extend(replies)
        return self

    def _next(self, received: Received) -> Reply:
        with self._lock:
            self.requests.append(received)
            if self.script:
                return self.script.pop(0)
        if self.default is None:
            return status(599, b"unscripted request")
        return self.default


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    gateway: LoopbackGateway

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        received = Received(
            method="POST",
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            at=time.monotonic(),
        )
        self.gateway._next(received)(self, received)

    def send_bytes(self, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(code)
        merged = {"Content-Type": "application/json", **(headers or {})}
        for name, value in merged.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            return


# ---------------------------------------------------------------------------------- replies


def completion(
    text: str | list[dict[str, Any]] | None,
    *,
    model: str = "gw-model-1",
    finish_reason: str = "stop",
    usage: dict[str, int] | None = None,
    extra_message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A Chat Completions body with one choice."""
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, **(extra_message or {})},
                "finish_reason": finish_reason,
            }
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def answer(compose: Callable[[Received], str], **kwargs: Any) -> Reply:
    """A 200 whose answer text is written from the request (so it can cite the ids sent)."""

    def reply(handler: _Handler, received: Received) -> None:
        body = completion(compose(received), **kwargs)
        handler.send_bytes(200, json.dumps(body).encode())

    return reply


def json_body(code: int, body: Any, headers: dict[str, str] | None = None) -> Reply:
    def reply(handler: _Handler, received: Received) -> None:
        handler.send_bytes(code, json.dumps(body).encode(), headers)

    return reply


def status(code: int, body: bytes = b"", headers: dict[str, str] | None = None) -> Reply:
    def reply(handler: _Handler, received: Received) -> None:
        handler.send_bytes(code, body, headers)

    return reply


def slow(seconds: float, then: Reply) -> Reply:
    """Wait (interruptibly, so teardown is quick) before replying."""

    def reply(handler: _Handler, received: Received) -> None:
        if handler.gateway.stopping.wait(seconds):
            return
        then(handler, received)

    return reply


def trickle(total_bytes: int, every_s: float) -> Reply:
    """Send headers at once, then one body byte every ``every_s`` seconds."""

    def reply(handler: _Handler, received: Received) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(total_bytes))
        handler.end_headers()
        handler.wfile.flush()
        for _ in range(total_bytes):
            if handler.gateway.stopping.wait(every_s):
                return
            handler.wfile.write(b" ")
            handler.wfile.flush()

    return reply


def chunked(body_chunks: list[bytes]) -> Reply:
    """A 200 with Transfer-Encoding: chunked and no Content-Length."""

    def reply(handler: _Handler, received: Received) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        for chunk in body_chunks:
            handler.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        handler.wfile.write(b"0\r\n\r\n")

    return reply


def hang_up() -> Reply:
    """Close the connection without any response."""

    def reply(handler: _Handler, received: Received) -> None:
        handler.close_connection = True
        handler.connection.shutdown(2)

    return reply
