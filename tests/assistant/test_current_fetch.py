"""Tests for assistant.current.fetch against a real HTTPS server on 127.0.0.1.

The server's certificate is for a public-looking host name; a resolver double maps that name to
127.0.0.1. Tests that need a successful fetch also pass a peer policy that admits 127.0.0.1 (a
constructor argument no setting can reach); every other test runs the production policy, which
refuses the loopback peer at connect time.
"""

from __future__ import annotations

import gzip
import ipaddress
import socket
import time

import pytest

from assistant.current import fetch
from assistant.current.fetch import Fetcher, FetchError, FetchLimits
from registry_review.validation import SourceRecord, validate_registry_data
from tests.assistant.source_server import SOURCE_HOST, running_source_server, send

LOOPBACK = ipaddress.ip_address("127.0.0.1")
PAGE = (
    b"<!doctype html><html><head><title>Guide</title><script>var secret = 'x';</script>"
    b"<style>p{}</style></head><body><nav>Home | Menu</nav><main><h1>Framework guide</h1>"
    b"<p>The framework expects organisations to name an owner for each AI risk.</p>"
    b"<p>Owners review residual risk on a fixed schedule.</p></main>"
    b"<footer>Footer links</footer></body></html>"
)


@pytest.fixture(scope="module")
def server():
    with running_source_server() as srv:
        yield srv


@pytest.fixture(autouse=True)
def _reset(server):
    server.routes.clear()
    server.seen.clear()


def record_for(server, path: str = "/guide/page", prefix: str = "/guide") -> SourceRecord:
    report = validate_registry_data(
        {
            "sources": [
                {
                    "id": "fixture-guide",
                    "title": "Fixture guide",
                    "url": server.url(path),
                    "allowed_origin": server.origin,
                    "allowed_path_prefix": prefix,
                    "source_type": "public guide",
                    "trust_label": "standards",
                    "freshness_label": "Reviewed quarterly",
                    "claim_boundary": "Test context only.",
                    "query_terms": ["framework"],
                }
            ]
        },
        production=False,
        allowed_ports=frozenset({server.port}),
    )
    assert report.state == "valid", report.to_dict()
    return report.valid_records[0]


class Resolver:
    """Maps every name to fixed answers and counts calls; never uses real DNS."""

    def __init__(self, *answers: str):
        self.answers = list(answers) or ["127.0.0.1"]
        self.calls: list[tuple[str, int]] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append((host, port))
        return self.answers


def fetcher(server, *, resolver=None, loopback_allowed: bool = True, **limits) -> Fetcher:
    return Fetcher(
        resolver=resolver or Resolver(),
        peer_allowed=(lambda ip: ip == LOOPBACK) if loopback_allowed else fetch.is_public_address,
        ssl_context=server.client_ssl_context,
        limits=FetchLimits(**limits) if limits else None,
        allowed_ports=frozenset({server.port}),
    )


def fails(server, reason_part: str, **kw) -> FetchError:
    with pytest.raises(FetchError) as caught:
        fetcher(server, **kw).fetch(record_for(server))
    assert reason_part in caught.value.reason, caught.value.reason
    return caught.value


# ------------------------------------------------------------------------------ the happy path
def test_fetches_html_as_text_with_a_bare_get(server):
    server.routes["/guide/page"] = lambda h: send(h, PAGE, headers={"Set-Cookie": "sid=abc"})
    doc = fetcher(server).fetch(record_for(server))
    assert doc.text == (
        "Framework guide\nThe framework expects organisations to name an owner for each AI risk.\n"
        "Owners review residual risk on a fixed schedule."
    )
    assert doc.url == server.url("/guide/page") and doc.media_type == "text/html"
    (req,) = server.seen
    assert req["method"] == "GET"
    assert req["host"] == f"{SOURCE_HOST}:{server.port}"
    assert req["accept-encoding"] == "identity"
    assert "cookie" not in req and "authorization" not in req


def test_tls_certificate_is_verified_for_the_registry_host(server):
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    plain = Fetcher(
        resolver=Resolver(), peer_allowed=lambda ip: ip == LOOPBACK, allowed_ports=frozenset({server.port})
    )
    with pytest.raises(FetchError) as caught:
        plain.fetch(record_for(server))
    assert "certificate" in caught.value.reason
    assert server.seen == []


# ------------------------------------------------------------------------- connect-time guard
def test_connect_time_guard_refuses_a_public_looking_host_that_resolves_to_loopback(server, monkeypatch):
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    resolver = Resolver("127.0.0.1")

    def no_connect(*a, **k):
        pytest.fail("a socket was opened to a refused peer")

    monkeypatch.setattr(socket, "create_connection", no_connect)
    error = fails(server, "non-public address; refused before connecting", resolver=resolver, loopback_allowed=False)
    assert SOURCE_HOST in error.reason
    assert resolver.calls == [(SOURCE_HOST, server.port)]
    assert server.seen == []


@pytest.mark.parametrize(
    "answers",
    [
        ("10.0.0.5",),
        ("169.254.169.254",),
        ("::1",),
        ("::ffff:127.0.0.1",),
        ("64:ff9b::a9fe:a9fe",),
        ("fe80::1%eth0",),
        ("8.8.8.8", "127.0.0.1"),  # one bad answer among good ones refuses the whole name
    ],
)
def test_every_resolved_address_must_be_public(server, monkeypatch, answers):
    def no_connect(*a, **k):
        pytest.fail("a socket was opened although an answer was non-public")

    monkeypatch.setattr(socket, "create_connection", no_connect)
    fails(server, "non-public", resolver=Resolver(*answers), loopback_allowed=False)


def test_resolution_failure_fails_closed(server):
    def broken(host, port):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    fails(server, f"could not resolve {SOURCE_HOST}", resolver=broken)


def test_slow_resolution_counts_against_the_deadline(server):
    def slow(host, port):
        time.sleep(1.0)
        return ["127.0.0.1"]

    started = time.monotonic()
    fails(server, "took longer than the time budget", resolver=slow, deadline_s=0.2)
    assert time.monotonic() - started < 0.9


def test_resolved_once_and_connected_to_the_vetted_address(server):
    """No pre-flight lookup: the one answer that was checked is the one connected to."""
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    seen_peers: list[object] = []

    def policy(ip):
        seen_peers.append(ip)
        return ip == LOOPBACK

    resolver = Resolver("127.0.0.1")
    f = Fetcher(resolver=resolver, peer_allowed=policy, ssl_context=server.client_ssl_context,
                allowed_ports=frozenset({server.port}))
    f.fetch(record_for(server))
    assert resolver.calls == [(SOURCE_HOST, server.port)]
    assert seen_peers == [LOOPBACK]


def test_proxy_environment_is_ignored(server, monkeypatch):
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    assert fetcher(server).fetch(record_for(server)).text.startswith("Framework guide")


# ------------------------------------------------------------------------------- redirects
def test_redirect_inside_the_prefix_is_followed_without_cookies(server):
    server.routes["/guide/page"] = lambda h: send(
        h, b"", status=302, headers={"Location": "/guide/moved", "Set-Cookie": "sid=abc"}
    )
    server.routes["/guide/moved"] = lambda h: send(h, PAGE)
    doc = fetcher(server).fetch(record_for(server))
    assert doc.url == server.url("/guide/moved")
    assert [r["path"] for r in server.seen] == ["/guide/page", "/guide/moved"]
    assert all("cookie" not in r for r in server.seen)


@pytest.mark.parametrize(
    "location",
    [
        "/admin",
        "/guide-evil/page",
        "/guide/../admin",
        "/guide/%2e%2e/admin",
        "http://{host}/guide/page",
        "https://evil-site.org/guide/page",
        "https://169.254.169.254/guide/page",
        "https://2130706433/guide/page",
        "https://user:pw@{host}/guide/page",
        "//evil-site.org/guide/page",
    ],
)
def test_redirect_escapes_fail_closed_before_the_next_request(server, location):
    target = location.replace("{host}", f"{SOURCE_HOST}:{server.port}")
    server.routes["/guide/page"] = lambda h: send(h, b"", status=301, headers={"Location": target})
    fails(server, "unsafe URL")
    assert [r["path"] for r in server.seen] == ["/guide/page"]


def test_redirect_hops_are_bounded(server):
    for i in range(6):
        server.routes[f"/guide/{i}"] = lambda h, i=i: send(h, b"", status=302, headers={"Location": f"/guide/{i + 1}"})
    with pytest.raises(FetchError) as caught:
        fetcher(server).fetch(record_for(server, path="/guide/0"))
    assert "more than 3 redirects" in caught.value.reason
    assert len(server.seen) == 4


def test_redirect_without_location(server):
    server.routes["/guide/page"] = lambda h: send(h, b"", status=302)
    fails(server, "without a Location")


# ----------------------------------------------------------------------------- size and time
def test_declared_oversized_response_fails_before_reading(server):
    server.routes["/guide/page"] = lambda h: send(h, b"x" * 5000, content_type="text/plain")
    fails(server, "larger than 2,000 bytes", max_bytes=2000)


def test_undeclared_oversized_stream_is_cut_off(server):
    def chunked(h):
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Connection", "close")
        h.end_headers()
        try:
            for _ in range(200):
                h.wfile.write(b"word " * 200)
                h.wfile.flush()
        except OSError:
            pass
        h.close_connection = True

    server.routes["/guide/page"] = chunked
    fails(server, "larger than 5,000 bytes", max_bytes=5000)


def _trickle(h, *, headers_only: bool = False):
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.send_header("Content-Length", "100000")
    h.end_headers()
    h.wfile.flush()
    try:
        for _ in range(100):
            if not headers_only:
                h.wfile.write(b"a")
                h.wfile.flush()
            time.sleep(0.05)
    except OSError:
        pass


def test_a_trickle_past_the_total_deadline_fails_closed(server):
    server.routes["/guide/page"] = _trickle
    started = time.monotonic()
    fails(server, "did not finish within 0.6 seconds", deadline_s=0.6)
    assert time.monotonic() - started < 2.0


def test_a_stalled_body_fails_closed(server):
    server.routes["/guide/page"] = lambda h: _trickle(h, headers_only=True)
    started = time.monotonic()
    fails(server, "did not answer within 0.5 seconds", deadline_s=0.5)
    assert time.monotonic() - started < 2.0


# ------------------------------------------------------------------------ types and content
@pytest.mark.parametrize(
    "content_type",
    ["application/octet-stream", "image/png", "application/pdf", "text/javascript", "application/xml", None],
)
def test_unsupported_content_types_fail_closed(server, content_type):
    server.routes["/guide/page"] = lambda h: send(h, PAGE, content_type=content_type)
    fails(server, "unsupported content type")


@pytest.mark.parametrize(
    "content_type, body, expected",
    [
        ("text/plain; charset=utf-8", b"Plain guidance text that is long enough to keep.", "Plain guidance"),
        ("text/markdown", b"# Heading\n\nMarkdown guidance text that is long enough.", "Markdown guidance"),
        ("application/json", b'{"items": [{"summary": "JSON guidance text that is long enough to keep."}]}', "JSON guidance"),
        ("application/ld+json", b'{"description": "Linked data guidance text that is long enough."}', "Linked data"),
        ("text/plain; charset=iso-8859-1", "Caf\u00e9 guidance text long enough to keep here.".encode("latin-1"), "Caf\u00e9"),
    ],
)
def test_allowed_content_types_are_extracted(server, content_type, body, expected):
    server.routes["/guide/page"] = lambda h: send(h, body, content_type=content_type)
    assert expected in fetcher(server).fetch(record_for(server)).text


def test_gzip_bomb_is_refused_without_decoding(server):
    bomb = gzip.compress(b"\0" * 20_000_000, compresslevel=9)
    assert len(bomb) < 100_000
    server.routes["/guide/page"] = lambda h: send(
        h, bomb, content_type="text/plain", headers={"Content-Encoding": "gzip"}
    )
    fails(server, "'gzip'-encoded content")


def test_compressed_bytes_labelled_as_text_never_inflate(server):
    bomb = gzip.compress(b"\0" * 5_000_000)
    server.routes["/guide/page"] = lambda h: send(h, bomb, content_type="text/plain")
    fails(server, "binary, not text")


@pytest.mark.parametrize(
    "body, reason",
    [
        (b"<html><body><p>text\x00\x01\x02 with NUL</p></body></html>", "binary"),
        (b"<html><head><script>only script</script></head><body><nav>menu</nav></body></html>", "no readable text"),
        (b"<<<<>>>></div></div><p", "no readable text"),
        (b"\xff\xfe\xfa" * 400, "not readable text"),
        (b"<html><body>" + b"<div>" * 100_000 + b"Deeply nested text that goes on.</body></html>", "no readable text"),
        (b"", "HTML could not be parsed"),
    ],
)
def test_malformed_html_fails_closed(server, body, reason):
    server.routes["/guide/page"] = lambda h: send(h, body)
    started = time.monotonic()
    with pytest.raises(FetchError) as caught:
        fetcher(server, max_bytes=2_000_000).fetch(record_for(server))
    assert reason in caught.value.reason
    assert time.monotonic() - started < 2.0


def test_a_large_flat_page_is_parsed_quickly(server):
    body = b"<html><body><main>" + b"<p>Owners review risk.</p>" * 35_000 + b"</main></body></html>"
    assert len(body) < 1_000_000
    server.routes["/guide/page"] = lambda h: send(h, body)
    started = time.monotonic()
    doc = fetcher(server).fetch(record_for(server))
    assert doc.text.startswith("Owners review risk.\nOwners review risk.")
    assert time.monotonic() - started < 2.0


def test_malformed_json_fails_closed(server):
    server.routes["/guide/page"] = lambda h: send(h, b'{"a": [1, 2', content_type="application/json")
    fails(server, "JSON response is malformed")


def test_unknown_charset_fails_closed(server):
    server.routes["/guide/page"] = lambda h: send(h, PAGE, content_type="text/html; charset=x-unknown-7")
    fails(server, "unknown character set")


@pytest.mark.parametrize("status", [404, 500, 204, 401])
def test_non_200_statuses_fail_closed(server, status):
    server.routes["/guide/page"] = lambda h: send(h, b"", status=status, content_type="text/plain")
    fails(server, f"HTTP {status}")


def test_extracted_text_is_bounded(server):
    server.routes["/guide/page"] = lambda h: send(h, b"guidance " * 20_000, content_type="text/plain")
    doc = fetcher(server, max_chars=1000).fetch(record_for(server))
    assert len(doc.text) == 1000


# --------------------------------------------------------------- records that skipped validation
@pytest.mark.parametrize(
    "url",
    [
        "http://{host}/guide/page",
        "https://{host}/admin",
        "https://user:pw@{host}/guide/page",
        "https://127.0.0.1/guide/page",
        "https://0x7f000001/guide/page",
    ],
)
def test_the_fetcher_rechecks_the_record_url_itself(server, url):
    record = record_for(server)
    bad = SourceRecord(**{**record.__dict__, "url": url.replace("{host}", f"{SOURCE_HOST}:{server.port}")})

    def no_resolve(host, port):
        pytest.fail("an unsafe record URL reached the resolver")

    with pytest.raises(FetchError) as caught:
        fetcher(server, resolver=no_resolve).fetch(bad)
    assert caught.value.reason.startswith("unsafe URL")
    assert server.seen == []
