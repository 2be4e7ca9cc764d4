"""The loopback LLM gateway of the slow-gateway run: OpenAI-compatible Chat Completions on 127.0.0.1 after a fixed delay.

It answers every request after ``delay_s`` seconds with a grounded package-only answer written
from the package sources it was sent, so the app's answer check accepts it.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "bench-slow-gateway"


def _sources(user_message: str) -> list[tuple[str, str]]:
    """(citation id, text) of each package source in the user turn, in the order sent."""
    found = []
    for head in re.finditer(r"^<<<SOURCE (P\d+) \|[^\n]*\n", user_message, re.M):
        cid = head.group(1)
        text = user_message[head.end() :].split(f"\n>>>END SOURCE {cid}\n", 1)[0]
        found.append((cid, text))
    return found


def _quotable_sentence(text: str) -> str | None:
    """The first sentence of the first line of prose in a source (not a table row or heading)."""
    for line in text.splitlines():
        line = line.strip().lstrip("-*# ").strip()
        if len(line) > 30 and "|" not in line and not line.endswith(":"):
            return re.split(r"(?<=[.!?])\s+(?=[A-Z])", line)[0]
    return None


def compose_answer(user_message: str) -> str:
    """A package-only answer that quotes a sentence of a source it cites, in the app's lanes.

    Raises ValueError when the request carries no package source with a quotable sentence.
    """
    for cid, text in _sources(user_message):
        sentence = _quotable_sentence(text)
        if sentence:
            return (
                f"Package says\n{sentence} [{cid}]\n\n"
                f"Synthesis / implications\nThe package remains the source of record [{cid}]. "
                "This is an implication of the cited lanes, not source evidence."
            )
    raise ValueError("no package source with a quotable sentence in the request")


def completion_body(user_message: str) -> dict[str, Any]:
    """The Chat Completions response the gateway sends for a request's user turn."""
    return {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": compose_answer(user_message)},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": len(user_message) // 4, "completion_tokens": 60},
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Every oversubscribed client may connect at once; the default backlog (5) would drop SYNs
    # and add the kernel's one-second retry to some requests.
    request_queue_size = 512


class SlowGateway:
    """An OpenAI-compatible gateway on a free 127.0.0.1 port answering after ``delay_s`` seconds."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.served = 0
        self.failed = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        handler = type("Handler", (_Handler,), {"gateway": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def reply(self, body: bytes) -> tuple[int, bytes]:
        """Wait the fixed delay, then the status and body for one request's JSON ``body``."""
        started = time.monotonic()
        try:
            user_message = json.loads(body)["messages"][1]["content"]
            status, payload = 200, completion_body(user_message)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            status, payload = 400, {"error": {"message": f"bench gateway: {exc}"}}
        self._stopping.wait(max(0.0, self.delay_s - (time.monotonic() - started)))
        with self._lock:
            if status == 200:
                self.served += 1
            else:
                self.failed += 1
        return status, json.dumps(payload).encode()

    def start(self) -> SlowGateway:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    gateway: SlowGateway

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status, payload = self.gateway.reply(body)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        return


@contextmanager
def slow_gateway(delay_s: float) -> Iterator[SlowGateway]:
    gateway = SlowGateway(delay_s).start()
    try:
        yield gateway
    finally:
        gateway.stop()
