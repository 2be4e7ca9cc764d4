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
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.current import fetch, page_text
from assistant.current.fetch import Fetcher, FetchError, FetchLimits
from core import addresses
from registry_review.records import SourceRecord
from registry_review.validation import validate_registry_data
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
        peer_allowed=(lambda ip: ip == LOOPBACK)
        if loopback_allowed
        else addresses.is_public_address,
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
        resolver=Resolver(),
        peer_allowed=lambda ip: ip == LOOPBACK,
        allowed_ports=frozenset({server.port}),
    )
    with pytest.raises(FetchError) as caught:
        plain.fetch(record_for(server))
    assert "certificate" in caught.value.reason
    assert server.seen == []


# ------------------------------------------------------------------------- connect-time guard
def test_connect_time_guard_refuses_a_public_looking_host_that_resolves_to_loopback(
    server, monkeypatch
):
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    resolver = Resolver("127.0.0.1")

    def no_connect(*a, **k):
        pytest.fail("a socket was opened to a refused peer")

    monkeypatch.setattr(socket, "create_connection", no_connect)
    error = fails(
        server,
        "non-public address; refused before connecting",
        resolver=resolver,
        loopback_allowed=False,
    )
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
    f = Fetcher(
        resolver=resolver,
        peer_allowed=policy,
        ssl_context=server.client_ssl_context,
        allowed_ports=frozenset({server.port}),
    )
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
        server.routes[f"/guide/{i}"] = lambda h, i=i: send(
            h, b"", status=302, headers={"Location": f"/guide/{i + 1}"}
        )
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
    [
        "application/octet-stream",
        "image/png",
        "application/pdf",
        "text/javascript",
        "application/xml",
        None,
    ],
)
def test_unsupported_content_types_fail_closed(server, content_type):
    server.routes["/guide/page"] = lambda h: send(h, PAGE, content_type=content_type)
    fails(server, "unsupported content type")


@pytest.mark.parametrize(
    "content_type, body, expected",
    [
        (
            "text/plain; charset=utf-8",
            b"Plain guidance text that is long enough to keep.",
            "Plain guidance",
        ),
        (
            "text/markdown",
            b"# Heading\n\nMarkdown guidance text that is long enough.",
            "Markdown guidance",
        ),
        (
            "application/json",
            b'{"items": [{"summary": "JSON guidance text that is long enough to keep."}]}',
            "JSON guidance",
        ),
        (
            "application/ld+json",
            b'{"description": "Linked data guidance text that is long enough."}',
            "Linked data",
        ),
        (
            "text/plain; charset=iso-8859-1",
            "Caf\u00e9 guidance text long enough to keep here.".encode("latin-1"),
            "Caf\u00e9",
        ),
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
        (
            b"<html><head><script>only script</script></head><body><nav>menu</nav></body></html>",
            "no readable text",
        ),
        (b"<<<<>>>></div></div><p", "no readable text"),
        (b"\xff\xfe\xfa" * 400, "not readable text"),
        (
            b"<html><body>"
            + b"<div>" * 100_000
            + b"Deeply nested text that goes on.</body></html>",
            "no readable text",
        ),
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
    server.routes["/guide/page"] = lambda h: send(
        h, b'{"a": [1, 2', content_type="application/json"
    )
    fails(server, "JSON response is malformed")


def test_unknown_charset_fails_closed(server):
    server.routes["/guide/page"] = lambda h: send(
        h, PAGE, content_type="text/html; charset=x-unknown-7"
    )
    fails(server, "unknown character set")


@pytest.mark.parametrize("status", [404, 500, 204, 401])
def test_non_200_statuses_fail_closed(server, status):
    server.routes["/guide/page"] = lambda h: send(h, b"", status=status, content_type="text/plain")
    fails(server, f"HTTP {status}")


def test_extracted_text_is_bounded(server):
    server.routes["/guide/page"] = lambda h: send(
        h, b"guidance " * 20_000, content_type="text/plain"
    )
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
    bad = SourceRecord(
        **{**record.__dict__, "url": url.replace("{host}", f"{SOURCE_HOST}:{server.port}")}
    )

    def no_resolve(host, port):
        pytest.fail("an unsafe record URL reached the resolver")

    with pytest.raises(FetchError) as caught:
        fetcher(server, resolver=no_resolve).fetch(bad)
    assert caught.value.reason.startswith("unsafe URL")
    assert server.seen == []


# ------------------------------------------------------------------ audit: holes found and closed
def _raw(handler, data: bytes) -> None:
    """Write bytes straight to the socket (for responses BaseHTTPRequestHandler cannot form)."""
    try:
        handler.wfile.write(data)
        handler.wfile.flush()
    except OSError:
        pass
    handler.close_connection = True


def _header_trickle(h):
    _raw(h, b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
    for _ in range(100):
        _raw(h, b"X-Slow: a\r\n")
        time.sleep(0.05)


def _informational_flood(h):
    for _ in range(100):
        _raw(h, b"HTTP/1.1 100 Continue\r\n\r\n")
        time.sleep(0.05)


@pytest.mark.parametrize(
    "route", [_header_trickle, _informational_flood], ids=["header-trickle", "100-continue-flood"]
)
def test_the_total_deadline_also_bounds_the_response_headers(server, route):
    """Each read got a fresh per-read timeout while headers arrived, so headers could run forever."""
    server.routes["/guide/page"] = route
    started = time.monotonic()
    fails(server, "did not answer within 0.6 seconds", deadline_s=0.6)
    assert time.monotonic() - started < 1.5


@pytest.mark.parametrize(
    "charset",
    [
        "punycode",
        "idna",
        "rot13",
        "base64",
        "zlib",
        "raw_unicode_escape",
        "unicode_escape",
        "utf-7",
        "undefined",
    ],
)
def test_transform_and_escape_codecs_are_not_character_sets(server, charset):
    """Python codecs that are not web character sets: some raise, `punycode` is quadratic in the body."""
    body = b"abc-" + b"abcdefghij" * 6_000
    server.routes["/guide/page"] = lambda h: send(
        h, body, content_type=f"text/plain; charset={charset}"
    )
    started = time.monotonic()
    fails(server, "unsupported character set")
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize(
    "charset",
    [
        "UTF-8",
        "utf8",
        "latin1",
        "ISO-8859-15",
        "us-ascii",
        "windows-1252",
        "Shift_JIS",
        "EUC-KR",
        "GB18030",
        "KOI8-R",
    ],
)
def test_the_web_character_sets_are_still_read(charset):
    body = "Plain guidance text that is long enough to keep around.".encode(charset)
    assert (
        page_text.extract_text(body, "text/plain", charset)
        == "Plain guidance text that is long enough to keep around."
    )


@pytest.mark.parametrize("charset", ["\x00", "utf-8\x00", "a" * 300, "", " "])
def test_odd_charset_labels_never_raise_anything_but_fetch_error(charset):
    body = b"Plain guidance text that is long enough to keep around."
    try:
        assert page_text.extract_text(body, "text/plain", charset).startswith("Plain guidance")
    except FetchError as exc:
        assert "character set" in exc.reason


@pytest.mark.parametrize(
    "separator", [b" ", b"/", b"\n", b""], ids=["space", "slash", "newline", "after-quote"]
)
def test_an_element_with_too_many_attributes_fails_closed_quickly(server, separator):
    """libxml2 checks attribute names pairwise: 80,000 attributes in 700 KB cost over 20 s of CPU."""
    attrs = separator.join(b'a%d="x"' % i for i in range(30_000))
    body = (
        b"<html><body><p "
        + attrs
        + b">Text that is long enough to keep around here.</p></body></html>"
    )
    server.routes["/guide/page"] = lambda h: send(h, body)
    started = time.monotonic()
    fails(server, "too many attributes", max_bytes=2_000_000)
    assert time.monotonic() - started < 1.0


def test_attribute_counting_ignores_quoted_values():
    """Long quoted values (SVG paths, data URIs, alt text) are not attribute lists."""
    path = " ".join(f"L {i} {i}" for i in range(5_000))
    markup = (
        f'<html><body><main><svg><path d="M 0 0 {path}"/></svg>'
        f'<img alt="{"word " * 3_000}" src="data:image/png;base64,{"A" * 50_000}">'
        "<p>Owners review residual risk on a fixed schedule.</p></main></body></html>"
    )
    assert (
        page_text.extract_text(markup.encode(), "text/html", "utf-8")
        == "Owners review residual risk on a fixed schedule."
    )


def test_a_many_attribute_limit_applies_per_element(server):
    element = (
        b"<p " + b" ".join(b"a%d" % i for i in range(200)) + b">Owners review residual risk.</p>"
    )
    body = b"<html><body><main>" + element * 900 + b"</main></body></html>"
    server.routes["/guide/page"] = lambda h: send(h, body)
    started = time.monotonic()
    assert (
        fetcher(server, max_bytes=2_000_000)
        .fetch(record_for(server))
        .text.startswith("Owners review residual risk.")
    )
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize(
    "location",
    [
        "/guide/..;/admin",
        "/guide/%2e%2e;/admin",
        "/guide/..%3b/admin",
        "/guide/%252e%252e/admin",
        "/guide/%252fadmin",
        "/guide/%zz/page",
        "/guide/%c0%ae%c0%ae/admin",
    ],
)
def test_redirects_that_servers_may_read_as_a_dot_segment_fail_closed(server, location):
    """Tomcat-style `..;` path parameters, double encoding and invalid escapes leave the prefix on some servers."""
    server.routes["/guide/page"] = lambda h: send(
        h, b"", status=301, headers={"Location": location}
    )
    fails(server, "unsafe URL")
    assert [r["path"] for r in server.seen] == ["/guide/page"]


@pytest.mark.parametrize("variable", ["SSL_CERT_FILE", "SSL_CERT_DIR"])
def test_the_ca_bundle_is_not_taken_from_the_environment(server, monkeypatch, tmp_path, variable):
    """Public sources are verified against the public CA bundle, never a CA named by SSL_CERT_FILE/DIR."""
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    (tmp_path / "ca.pem").write_bytes(server.ca_pem)
    ssl_hash = f"{_subject_hash(server.ca_pem):08x}.0"
    (tmp_path / ssl_hash).write_bytes(server.ca_pem)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)  # httpx reads SSL_CERT_DIR only without it
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv(
        variable, str(tmp_path / "ca.pem") if variable == "SSL_CERT_FILE" else str(tmp_path)
    )
    production_tls = Fetcher(
        resolver=Resolver(),
        peer_allowed=lambda ip: ip == LOOPBACK,
        allowed_ports=frozenset({server.port}),
    )
    with pytest.raises(FetchError) as caught:
        production_tls.fetch(record_for(server))
    assert "certificate" in caught.value.reason
    assert server.seen == []


def _subject_hash(pem: bytes) -> int:
    """OpenSSL's c_rehash name for a CA file, so SSL_CERT_DIR could find it (computed, not guessed)."""
    import subprocess

    out = subprocess.run(
        ["openssl", "x509", "-noout", "-subject_hash"],
        input=pem,
        capture_output=True,
        check=True,
    )
    return int(out.stdout.strip(), 16)


# --------------------------------------------------------- audit: traps handled, now proven
def test_netrc_credentials_are_never_sent(server, monkeypatch, tmp_path):
    """httpx clients read NETRC into `Authorization: Basic`; the fetcher must not."""
    netrc = tmp_path / "netrc"
    netrc.write_text(f"machine {SOURCE_HOST}\nlogin alice\npassword s3cret-netrc\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".netrc").write_text(netrc.read_text())
    (tmp_path / ".netrc").chmod(0o600)
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    fetcher(server).fetch(record_for(server))
    (req,) = server.seen
    assert "authorization" not in req and "proxy-authorization" not in req


def test_lowercase_and_no_proxy_variables_are_ignored_too(server, monkeypatch):
    server.routes["/guide/page"] = lambda h: send(h, PAGE)
    for name in ("https_proxy", "all_proxy", "HTTP_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "")
    assert fetcher(server).fetch(record_for(server)).text.startswith("Framework guide")


def test_rebinding_cannot_swap_the_address_between_check_and_connect(server, monkeypatch):
    """The name is resolved once; the socket is opened to that vetted literal, never to the name."""
    server.routes["/guide/page"] = lambda h: send(h, PAGE)

    class Rebinding:
        calls = 0

        def __call__(self, host, port):
            self.calls += 1
            return ["127.0.0.1"] if self.calls == 1 else ["169.254.169.254"]

    resolver = Rebinding()
    connects: list[tuple[object, ...]] = []
    real_connect, real_getaddrinfo = socket.create_connection, socket.getaddrinfo

    def spy_connect(address, *args, **kwargs):
        connects.append(address)
        return real_connect(address, *args, **kwargs)

    def numeric_only(host, *args, **kwargs):
        if host == SOURCE_HOST:
            pytest.fail("the host name was resolved again at connect time")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", spy_connect)
    monkeypatch.setattr(socket, "getaddrinfo", numeric_only)
    fetcher(server, resolver=resolver).fetch(record_for(server))
    assert resolver.calls == 1
    assert connects == [("127.0.0.1", server.port)]


def test_each_redirect_hop_is_resolved_and_vetted_again(server):
    """A second hop is a new connection: its peer is checked again, so a rebind there fails closed."""
    server.routes["/guide/page"] = lambda h: send(
        h, b"", status=302, headers={"Location": "/guide/next"}
    )
    server.routes["/guide/next"] = lambda h: send(h, PAGE)
    answers = iter([["127.0.0.1"], ["169.254.169.254"]])
    fails(server, "non-public address", resolver=lambda host, port: next(answers))
    assert [r["path"] for r in server.seen] == ["/guide/page"]


@pytest.mark.parametrize(
    "head",
    [
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Big: "
        + b"a" * 300_000
        + b"\r\nContent-Length: 60\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
        + b"X-A: b\r\n" * 20_000
        + b"Content-Length: 60\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\nContent-Length: 60\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        b"NOT-HTTP garbage\r\n\r\n",
    ],
    ids=["huge-header", "many-headers", "conflicting-length", "transfer-coding", "garbage"],
)
def test_malformed_or_oversized_response_heads_fail_closed(server, head):
    server.routes["/guide/page"] = lambda h: _raw(h, head + b"z" * 60)
    started = time.monotonic()
    fails(server, "malformed or oversized HTTP response")
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Encoding": "GZIP"},
        {"Content-Encoding": "deflate"},
        {"Content-Encoding": "br"},
        {"Content-Encoding": "zstd"},
        {"Content-Encoding": "identity, gzip"},
    ],
)
def test_any_content_coding_is_refused(server, headers):
    server.routes["/guide/page"] = lambda h: send(h, gzip.compress(PAGE), headers=headers)
    fails(server, "-encoded content although identity was requested")


def test_two_content_encoding_headers_are_refused(server):
    body = gzip.compress(PAGE)
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: identity\r\n"
        b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    server.routes["/guide/page"] = lambda h: _raw(h, head + body)
    fails(server, "'identity, gzip'-encoded content")


@pytest.mark.parametrize(
    "content_type",
    [
        "text/html2",
        "text/htmlx",
        "application/jsonp",
        "application/json5",
        "text/html , image/png",
        "application/x-javascript",
        "text/xml",
        "multipart/mixed; boundary=x",
        "",
        ";charset=utf-8",
    ],
)
def test_content_type_look_alikes_are_refused(server, content_type):
    server.routes["/guide/page"] = lambda h: send(h, PAGE, content_type=content_type)
    fails(server, "unsupported content type")


def test_two_content_type_headers_are_refused(server):
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Type: application/octet-stream\r\n"
        b"Content-Length: %d\r\n\r\n" % len(PAGE)
    )
    server.routes["/guide/page"] = lambda h: _raw(h, head + PAGE)
    fails(server, "unsupported content type 'text/html, application/octet-stream'")


@pytest.mark.parametrize(
    "content_type",
    [
        "TEXT/HTML",
        "text/html;charset=UTF-8",
        'text/html; charset="utf-8"; q="a;b"',
        "text/html; charset=windows-1252",
    ],
)
def test_parameters_and_case_do_not_change_an_allowed_type(server, content_type):
    server.routes["/guide/page"] = lambda h: send(h, PAGE, content_type=content_type)
    assert fetcher(server).fetch(record_for(server)).media_type == "text/html"


@pytest.mark.parametrize(
    "location",
    [
        "https://{name}:8443/guide/page",
        "https://{name}:443/guide/page",
        "/\\evil-site.org/guide/page",
        "/guide/%5c..%5cadmin",
        "/guide/%2f..%2fadmin",
        "https://{name}:{port}@evil-site.org/guide/page",
        "https://evil-site.org#@{name}:{port}/guide/page",
        "http://{name}:{port}/guide/next",
    ],
)
def test_more_redirect_escapes_fail_closed(server, location):
    target = location.replace("{name}", SOURCE_HOST).replace("{port}", str(server.port))
    server.routes["/guide/page"] = lambda h: send(h, b"", status=302, headers={"Location": target})
    fails(server, "unsafe URL")
    assert [r["path"] for r in server.seen] == ["/guide/page"]


def test_a_redirect_loop_stops_at_the_hop_limit(server):
    server.routes["/guide/page"] = lambda h: send(
        h, b"", status=307, headers={"Location": "/guide/page"}
    )
    fails(server, "more than 3 redirects")
    assert len(server.seen) == 4


def test_the_url_httpx_would_send_must_be_the_checked_one(server):
    """A query httpx would re-encode is not what was checked, so nothing is sent."""
    record = record_for(server)
    odd = SourceRecord(**{**record.__dict__, "url": record.url + "?q=a<b"})
    with pytest.raises(FetchError) as caught:
        fetcher(server).fetch(odd)
    assert "differs from the checked URL" in caught.value.reason
    assert server.seen == []


_MEDIA = st.sampled_from(sorted(fetch.ALLOWED_MEDIA_TYPES) + ["application/ld+json"])


@settings(max_examples=300, deadline=None)
@given(
    body=st.binary(max_size=400)
    | st.text(max_size=400).map(lambda s: s.encode("utf-8", "surrogatepass")),
    media_type=_MEDIA,
    charset=st.none()
    | st.sampled_from(["utf-8", "latin-1", "cp1252", "shift_jis", "gb18030", "utf-16"])
    | st.text(max_size=16),
)
def test_property_extraction_returns_text_or_fails_closed(body, media_type, charset):
    try:
        text = page_text.extract_text(body, media_type, charset, max_chars=500)
    except FetchError as exc:
        assert exc.reason
    else:
        assert isinstance(text, str) and page_text.MIN_TEXT_CHARS <= len(text) <= 500
