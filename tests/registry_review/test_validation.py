"""Tests for registry_review.validation: records, hosts in every notation, scope, and no network."""

from __future__ import annotations

import ipaddress
import json
import socket
from pathlib import Path

import pytest

from registry_review import validation as v

TEMPLATE = Path(__file__).resolve().parents[2] / "docs" / "current_source_registry_template.json"


def record(**overrides: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": "framework-guide",
        "title": "Public framework guide",
        "url": "https://docs.framework-guide.org/guide/overview",
        "allowed_origin": "https://docs.framework-guide.org",
        "allowed_path_prefix": "/guide",
        "source_type": "public framework page",
        "trust_label": "standards",
        "freshness_label": "Reviewed quarterly",
        "claim_boundary": "Public context only; approves nothing.",
        "query_terms": ["framework guide"],
    }
    base.update(overrides)
    return {k: val for k, val in base.items() if val is not ...}


def check(*records: object, production: bool = True, **kw: object) -> v.RegistryReport:
    return v.validate_registry_text(json.dumps({"sources": list(records)}), production=production, **kw)


def codes(report: v.RegistryReport, index: int = 0) -> set[str]:
    return {i.code for i in report.records[index].errors}


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Validation must never touch the network: any resolver or socket use fails the test."""

    def boom(*args, **kwargs):
        pytest.fail("registry validation used the network (DNS or socket)")

    monkeypatch.setattr(socket, "getaddrinfo", boom)
    monkeypatch.setattr(socket, "gethostbyname", boom)
    monkeypatch.setattr(socket, "create_connection", boom)
    monkeypatch.setattr(socket.socket, "connect", boom)


def test_the_shipped_template_is_valid_in_production():
    report = v.validate_registry_text(TEMPLATE.read_text(), production=True)
    assert report.state == "valid", report.to_dict()
    (rec,) = report.valid_records
    assert rec.id == "nist-ai-rmf-public-framework-candidate"
    assert rec.url == "https://www.nist.gov/itl/ai-risk-management-framework"
    assert rec.allowed_origin == "https://www.nist.gov"
    assert rec.trust_label in v.TRUST_LABELS
    assert report.adapter_outcome == "ready with 1 source"


def test_valid_record_is_normalised_and_contract_shaped():
    report = check(record(url="https://DOCS.framework-guide.org:443/guide/./a/../overview#top"))
    body = report.to_dict()
    assert body["state"] == "valid"
    (rec,) = body["records"]
    assert rec["id"] == "framework-guide" and rec["valid"] is True
    assert rec["errors"] == [] and rec["warnings"] == [
        "url has a #fragment; it is never sent and is dropped."
    ]
    assert rec["record"]["url"] == "https://docs.framework-guide.org/guide/overview"
    assert report.records[0].raw["url"].startswith("https://DOCS.")


@pytest.mark.parametrize(
    "text, code, fragment",
    [
        ('{"sources": [', "json_syntax", "line 1, column 14"),
        ('{\n  "sources": [\n    {"id": "a",}\n  ]\n}', "json_syntax", "line 3, column 16"),
        ("[" * 50_000 + "]" * 50_000, "too_deep", "nested"),
        ('{"sources": [{"a": {"b": {"c": {"d": {"e": 1}}}}}]}', "too_deep", "nested"),
        ('{"sources": [], "sources": []}', "duplicate_key", "'sources'"),
        ('{"sources": [{"id": "x", "id": "y"}]}', "duplicate_key", "'id'"),
        ('{"sources": [NaN]}', "json_value", "NaN"),
        ('{"sources": [' + "1" * 5000 + "]}", "json_value", ""),
        ('{"sources": {}}', "sources_type", "list"),
        ('{"records": []}', "missing_sources", '"sources"'),
        ("[]", "not_object", "JSON object"),
        ('"just a string"', "not_object", "JSON object"),
    ],
)
def test_document_errors_are_specific_and_never_raise(text, code, fragment):
    report = v.validate_registry_text(text, production=False)
    assert report.state == "invalid"
    (issue,) = report.document_errors
    assert issue.code == code
    assert fragment in issue.message
    assert report.valid_records == () and report.adapter_outcome == "unconfigured"


def test_size_is_limited_before_parsing(monkeypatch):
    def no_parse(*a, **k):
        pytest.fail("an oversized registry was parsed")

    monkeypatch.setattr(v.json, "loads", no_parse)
    report = v.validate_registry_text(" " * (v.MAX_REGISTRY_BYTES + 1), production=False)
    assert [i.code for i in report.document_errors] == ["too_large"]


def test_record_count_is_bounded():
    many = [record(id=f"s{i}") for i in range(v.MAX_RECORDS + 1)]
    report = check(*many)
    assert [i.code for i in report.document_errors] == ["too_many_records"]


@pytest.mark.parametrize("text", ["", "   \n", '{"sources": []}'])
def test_empty_registry(text):
    report = v.validate_registry_text(text, production=True)
    assert report.state == "empty" and report.records == ()
    assert report.adapter_outcome == "unconfigured"


def test_unset_setting_is_empty(settings):
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = ""
    assert v.configured_registry_report().state == "empty"
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = TEMPLATE.read_text()
    assert v.configured_registry_report().state == "valid"


@pytest.mark.parametrize("missing", v.REQUIRED_FIELDS)
def test_every_required_field_is_checked(missing):
    report = check(record(**{missing: ...}))
    assert report.state == "invalid"
    errors = report.records[0].errors
    assert any(i.field == missing and i.code == "missing" for i in errors)
    assert any(missing in i.message for i in errors)


@pytest.mark.parametrize(
    "overrides, field, code",
    [
        ({"title": 7}, "title", "type"),
        ({"title": "  "}, "title", "blank"),
        ({"claim_boundary": "x" * 1001}, "claim_boundary", "too_long"),
        ({"title": "a\nb"}, "title", "control_characters"),
        ({"id": "Has Spaces"}, "id", "bad_id"),
        ({"trust_label": "trusted"}, "trust_label", "unknown_trust_label"),
        ({"query_terms": "nist"}, "query_terms", "type"),
        ({"query_terms": ["ok", 3]}, "query_terms", "type"),
        ({"query_terms": ["x" * 81]}, "query_terms", "too_long"),
        ({"query_terms": [""]}, "query_terms", "blank"),
        ({"query_terms": [f"t{i}" for i in range(26)]}, "query_terms", "too_many"),
    ],
)
def test_field_rules(overrides, field, code):
    report = check(record(**overrides))
    assert (field, code) in {(i.field, i.code) for i in report.records[0].errors}
    assert report.records[0].record is None


@pytest.mark.parametrize("label", v.TRUST_LABELS)
def test_every_known_trust_label_is_accepted(label):
    assert check(record(trust_label=label)).state == "valid"


def test_missing_query_terms_is_a_warning_not_an_error():
    report = check(record(query_terms=...))
    assert report.state == "valid"
    assert [i.code for i in report.records[0].warnings] == ["no_query_terms"]


def test_unknown_field_warns():
    report = check({**record(), "cookie": "x"})
    assert report.state == "valid"
    assert [i.code for i in report.records[0].warnings] == ["unknown_field"]


def test_duplicate_ids_are_reported_on_the_later_record_and_valid_ones_kept():
    report = check(record(), record(title="Second"), record(id="other", url="ftp://x.org/"))
    assert report.state == "invalid"
    assert codes(report, 0) == set()
    assert codes(report, 1) == {"duplicate_id"}
    assert "record 1" in report.records[1].errors[0].message
    assert codes(report, 2) == {"not_https"}
    assert [r.id for r in report.valid_records] == ["framework-guide"]
    assert report.adapter_outcome == "ready with 1 source (2 invalid records dropped)"


def test_non_object_record():
    report = check("https://docs.framework-guide.org/guide")
    assert codes(report) == {"not_object"}


# ---------------------------------------------------------------------- hosts in every notation
def _with_host(host: str) -> dict[str, object]:
    return record(url=f"https://{host}/guide/overview", allowed_origin=f"https://{host}")


@pytest.mark.parametrize(
    "host, code",
    [
        # legacy IPv4 spellings the OS resolver maps to 127.0.0.1
        ("2130706433", "non_canonical_numeric_host"),
        ("0x7f000001", "non_canonical_numeric_host"),
        ("0X7F000001", "non_canonical_numeric_host"),
        ("017700000001", "non_canonical_numeric_host"),
        ("0177.0.0.1", "non_canonical_numeric_host"),
        ("0x7f.0.0.1", "non_canonical_numeric_host"),
        ("127.1", "non_canonical_numeric_host"),
        ("127.0.1", "non_canonical_numeric_host"),
        ("169.254.43518", "non_canonical_numeric_host"),
        ("0", "non_canonical_numeric_host"),
        ("010.0.0.1", "non_canonical_numeric_host"),
        ("docs.0x7f", "non_canonical_numeric_host"),
        ("docs.1", "non_canonical_numeric_host"),
        # canonical dotted quads in non-public ranges
        ("127.0.0.1", "non_public_address"),
        ("10.1.2.3", "non_public_address"),
        ("172.16.0.1", "non_public_address"),
        ("192.168.1.1", "non_public_address"),
        ("169.254.169.254", "non_public_address"),
        ("100.64.0.1", "non_public_address"),
        ("0.0.0.0", "non_public_address"),
        ("224.0.0.1", "non_public_address"),
        ("239.255.255.250", "non_public_address"),
        ("240.0.0.1", "non_public_address"),
        ("255.255.255.255", "non_public_address"),
        ("192.0.2.10", "non_public_address"),
        ("198.18.0.1", "non_public_address"),
        # IPv6, including IPv4 embedded in IPv6
        ("[::1]", "non_public_address"),
        ("[::]", "non_public_address"),
        ("[fe80::1]", "non_public_address"),
        ("[fc00::1]", "non_public_address"),
        ("[fd12:3456::1]", "non_public_address"),
        ("[ff02::1]", "non_public_address"),
        ("[::ffff:127.0.0.1]", "non_public_address"),
        ("[::ffff:7f00:1]", "non_public_address"),
        ("[::ffff:169.254.169.254]", "non_public_address"),
        ("[::127.0.0.1]", "non_public_address"),
        ("[64:ff9b::a9fe:a9fe]", "non_public_address"),
        ("[64:ff9b::7f00:1]", "non_public_address"),
        ("[2002:7f00:1::1]", "non_public_address"),
        ("[2002:a9fe:a9fe::1]", "non_public_address"),
        ("[2001:0:4136:e378:8000:63bf:80ff:fffe]", "non_public_address"),
        ("[2001:db8::1]", "non_public_address"),
        ("[fe80::1%25eth0]", "bad_host"),
        # names for this machine or a private network
        ("localhost", "internal_host"),
        ("LOCALHOST", "internal_host"),
        ("api.localhost", "internal_host"),
        ("printer.local", "internal_host"),
        ("metadata.google.internal", "internal_host"),
        ("wiki.corp", "internal_host"),
        ("nas.lan", "internal_host"),
        ("router.home", "internal_host"),
        ("portal.intranet", "internal_host"),
        ("box.home.arpa", "internal_host"),
        ("1.0.0.127.in-addr.arpa", "internal_host"),
        ("intranet", "internal_host"),
        ("fileserver", "single_label_host"),
        ("www.nist.gov.", "trailing_dot"),
        ("under_score.org", "bad_host"),
        ("-bad.org", "bad_host"),
        ("xn--bcher-kva.example.org", "placeholder_domain"),
    ],
)
def test_host_rules(host, code):
    report = check(_with_host(host))
    assert report.state == "invalid"
    assert code in codes(report), report.records[0].errors


@pytest.mark.parametrize("host", ["8.8.8.8", "[2001:4860:4860::8888]", "[::ffff:8.8.8.8]"])
def test_public_ip_literals_are_allowed_with_a_warning(host):
    report = check(_with_host(host))
    assert report.state == "valid"
    assert "ip_literal_host" in {i.code for i in report.records[0].warnings}


@pytest.mark.parametrize(
    "host",
    ["example.com", "docs.example.com", "example.net", "example.org", "docs.example", "site.test", "site.invalid"],
)
def test_placeholder_domains_are_errors_in_production_and_warnings_otherwise(host):
    prod = check(_with_host(host), production=True)
    assert prod.state == "invalid" and "placeholder_domain" in codes(prod)
    dev = check(_with_host(host), production=False)
    assert dev.state == "valid"
    assert "placeholder_domain" in {i.code for i in dev.records[0].warnings}


def test_example_lookalikes_are_not_placeholders():
    assert check(_with_host("myexample.com")).state == "valid"
    assert check(_with_host("example.com.au")).state == "valid"


@pytest.mark.parametrize(
    "address, public",
    [
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
        ("127.0.0.1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:8.8.8.8", True),
        ("64:ff9b::808:808", True),
        ("64:ff9b::a9fe:a9fe", False),
        ("64:ff9b:1::a9fe:a9fe", False),
        ("2002:808:808::1", True),
        ("2002:c0a8:0101::1", False),
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", True),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", False),
        ("2001:0:a9fe:a9fe:8000:63bf:3fff:fdd2", False),
        ("100.64.0.1", False),
        ("224.0.0.1", False),
        ("ff0e::1", False),
        ("::", False),
        ("::1", False),
    ],
)
def test_is_public_address_unwraps_embedded_ipv4(address, public):
    assert v.is_public_address(ipaddress.ip_address(address)) is public


# --------------------------------------------------------------------------- URLs and scope
@pytest.mark.parametrize(
    "url, code",
    [
        ("http://docs.framework-guide.org/guide/overview", "not_https"),
        ("ftp://docs.framework-guide.org/guide/overview", "not_https"),
        ("https://user:pw@docs.framework-guide.org/guide/overview", "forbidden_characters"),
        ("https://evil.org\\@docs.framework-guide.org/guide/", "forbidden_characters"),
        ("https://docs.framework-guide.org/guide/over view", "forbidden_characters"),
        ("https://docs.framework-guide.org/guide/\x00", "control_characters"),
        ("https://docs.framework-guide.org/guide/\tx", "control_characters"),
        ("https://docs.framework-guide.org/guide/caf\u00e9", "non_ascii"),
        ("https://docs.framework-guide.org:8443/guide/overview", "port_not_allowed"),
        ("https://docs.framework-guide.org:99999/guide/", "unparseable"),
        ("https://other-site.org/guide/overview", "origin_mismatch"),
        ("https://docs.framework-guide.org/guide-evil/page", "outside_prefix"),
        ("https://docs.framework-guide.org/guidebook", "outside_prefix"),
        ("https://docs.framework-guide.org/guide/../admin/", "outside_prefix"),
        ("https://docs.framework-guide.org/guide/%2e%2e/admin/", "outside_prefix"),
        ("https://docs.framework-guide.org/guide/%2E%2E/%2e%2E/admin", "outside_prefix"),
        ("https://docs.framework-guide.org/guide/.%2e/admin", "outside_prefix"),
        ("https://docs.framework-guide.org/guide/..%2fadmin", "encoded_separator"),
        ("https://docs.framework-guide.org/guide/%5c..%5cadmin", "encoded_separator"),
        ("https://docs.framework-guide.org/", "outside_prefix"),
    ],
)
def test_url_rules(url, code):
    report = check(record(url=url))
    assert code in codes(report), report.records[0].errors


@pytest.mark.parametrize(
    "origin, code",
    [
        ("https://docs.framework-guide.org/guide", "not_origin"),
        ("https://docs.framework-guide.org?x=1", "not_origin"),
        ("http://docs.framework-guide.org", "not_https"),
        ("https://127.0.0.1", "non_public_address"),
    ],
)
def test_allowed_origin_rules(origin, code):
    report = check(record(allowed_origin=origin))
    assert (("allowed_origin", code)) in {(i.field, i.code) for i in report.records[0].errors}


@pytest.mark.parametrize(
    "prefix, code",
    [
        ("guide", "bad_prefix"),
        ("/guide/../admin", "dot_segments"),
        ("/guide/./x", "dot_segments"),
        ("/guide//x", "dot_segments"),
        ("/guide?x=1", "bad_prefix"),
        ("/guide%2f", "bad_prefix"),
        ("/gui de", "bad_prefix"),
    ],
)
def test_allowed_path_prefix_rules(prefix, code):
    report = check(record(allowed_path_prefix=prefix))
    assert ("allowed_path_prefix", code) in {(i.field, i.code) for i in report.records[0].errors}


def test_prefix_is_segment_aware():
    assert v.path_within_prefix("/docs", "/docs")
    assert v.path_within_prefix("/docs/", "/docs")
    assert v.path_within_prefix("/docs/a/b", "/docs/")
    assert not v.path_within_prefix("/docs-evil", "/docs")
    assert not v.path_within_prefix("/docsx/a", "/docs")
    assert v.path_within_prefix("/anything", "/")


@pytest.mark.parametrize(
    "raw, normalised",
    [
        ("/a/b/../c", "/a/c"),
        ("/a/./b", "/a/b"),
        ("/a/%2e%2e/b", "/b"),
        ("/a/%2E/b", "/a/b"),
        ("/../../etc", "/etc"),
        ("/a/b/..", "/a/"),
        ("", "/"),
    ],
)
def test_normalise_path(raw, normalised):
    assert v.normalise_path(raw) == normalised


def test_explicitly_allowed_port(settings):
    url = "https://docs.framework-guide.org:8443/guide/overview"
    rec = record(url=url, allowed_origin="https://docs.framework-guide.org:8443")
    assert check(rec).state == "invalid"
    assert check(rec, allowed_ports=frozenset({8443})).state == "valid"
    settings.AICD_CURRENT_CONTEXT_ALLOWED_PORTS = (8443,)
    report = check(rec)
    assert report.state == "valid"
    assert report.valid_records[0].allowed_origin == "https://docs.framework-guide.org:8443"


def test_check_url_in_scope_for_redirect_targets():
    ok, reason = v.check_url_in_scope(
        "https://docs.framework-guide.org/guide/next?page=2",
        allowed_origin="https://docs.framework-guide.org",
        allowed_path_prefix="/guide",
    )
    assert ok == "https://docs.framework-guide.org/guide/next?page=2" and reason is None
    for target in (
        "https://docs.framework-guide.org/admin",
        "https://docs.framework-guide.org/guide/%2e%2e/admin",
        "http://docs.framework-guide.org/guide/x",
        "https://169.254.169.254/guide/x",
        "https://docs.framework-guide.org.evil.org/guide/x",
    ):
        ok, reason = v.check_url_in_scope(
            target, allowed_origin="https://docs.framework-guide.org", allowed_path_prefix="/guide"
        )
        assert ok is None and reason


def test_validate_registry_data_accepts_parsed_input():
    report = v.validate_registry_data({"sources": [record()]}, production=True)
    assert report.state == "valid"
    assert v.validate_registry_data(["not", "an", "object"], production=True).state == "invalid"


def test_messages_name_the_field_and_the_fix():
    report = check(record(url="http://docs.framework-guide.org/guide/overview"))
    (issue,) = report.records[0].errors
    assert issue.field == "url"
    assert "https://" in issue.message
