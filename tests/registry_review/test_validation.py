"""Tests for registry_review.validation: records, hosts in every notation, scope, and no network."""

from __future__ import annotations

import encodings.idna
import ipaddress
import json
import re
import socket
from pathlib import Path
from unittest import mock

import httpx
import idna
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core import addresses, netguard, url_paths
from registry_review import record_schema as schema
from registry_review import records
from registry_review import validation as v
from registry_review.configured import configured_registry_report

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


def check(*records: object, production: bool = True, **kw: object) -> records.RegistryReport:
    return v.validate_registry_text(
        json.dumps({"sources": list(records)}), production=production, **kw
    )


def codes(report: records.RegistryReport, index: int = 0) -> set[str]:
    return {i.code for i in report.records[index].errors}


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Validation must never touch the network: any resolver or socket use fails the test."""

    def boom(*args, **kwargs):
        pytest.fail("registry validation used the network (DNS or socket)")

    for name in (
        "getaddrinfo",
        "gethostbyname",
        "gethostbyname_ex",
        "gethostbyaddr",
        "getnameinfo",
        "create_connection",
        "inet_aton",
        "inet_pton",
    ):
        monkeypatch.setattr(socket, name, boom)
    monkeypatch.setattr(socket.socket, "connect", boom)
    # IDNA (the stdlib codec and the idna package) can be a resolver's first step: never used here.
    monkeypatch.setattr(encodings.idna, "ToASCII", boom)
    monkeypatch.setattr(encodings.idna, "ToUnicode", boom)
    monkeypatch.setattr(idna, "encode", boom)
    monkeypatch.setattr(idna, "decode", boom)


def test_the_shipped_template_is_valid_in_production():
    report = v.validate_registry_text(TEMPLATE.read_text(), production=True)
    assert report.state == "valid", report.to_dict()
    (rec,) = report.valid_records
    assert rec.id == "nist-ai-rmf-public-framework-candidate"
    assert rec.url == "https://www.nist.gov/itl/ai-risk-management-framework"
    assert rec.allowed_origin == "https://www.nist.gov"
    assert rec.trust_label in schema.TRUST_LABELS
    assert report.adapter_outcome == "ready with 1 source"


def test_the_template_carries_the_nist_aliases_as_data():
    (rec,) = v.validate_registry_text(TEMPLATE.read_text(), production=True).valid_records
    assert [a.term for a in rec.query_aliases] == [
        "NIST",
        "NIST principles",
        "NIST AI RMF",
        "AI RMF",
        "AI Risk Management Framework",
        "risk management framework expectations",
    ]


@pytest.mark.parametrize(
    "aliases, code",
    [
        ("NIST", "type"),
        (["NIST"], "type"),
        ([{"term": "NIST"}], "type"),
        ([{"term": "NIST", "pattern": "nist", "flags": "i"}], "type"),
        ([{"term": " ", "pattern": "nist"}], "blank"),
        ([{"term": "NIST", "pattern": "(nist"}], "bad_pattern"),
        ([{"term": "NIST", "pattern": "n" * 401}], "too_long"),
        ([{"term": "NIST\u0000", "pattern": "nist"}], "control_characters"),
        ([{"term": "NIST", "pattern": "nist"}] * 13, "too_many"),
    ],
)
def test_query_aliases_are_validated(aliases, code):
    report = check(record(query_aliases=aliases))
    assert code in codes(report) and report.valid_records == ()


def test_valid_query_aliases_are_kept_on_the_record():
    report = check(record(query_aliases=[{"term": "AI  RMF", "pattern": r"\bai\s*rmf\b"}]))
    (rec,) = report.valid_records
    assert rec.query_aliases == (records.QueryAlias("AI RMF", r"\bai\s*rmf\b"),)
    assert report.records[0].warnings == ()
    assert rec.to_dict()["query_aliases"] == [{"term": "AI RMF", "pattern": r"\bai\s*rmf\b"}]


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
    assert configured_registry_report().state == "empty"
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = TEMPLATE.read_text()
    assert configured_registry_report().state == "valid"


@pytest.mark.parametrize("missing", schema.REQUIRED_FIELDS)
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


@pytest.mark.parametrize("label", schema.TRUST_LABELS)
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
        # very long names: a 64-character label, a 254-character host
        ("a" * 64 + ".org", "bad_host"),
        (".".join(["a" * 62] * 4) + ".org", "bad_host"),
        ("[3fff::1]", "non_public_address"),  # IPv6 documentation range (RFC 9637)
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
    [
        "example.com",
        "docs.example.com",
        "example.net",
        "example.org",
        "docs.example",
        "site.test",
        "site.invalid",
    ],
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
    "url",
    [
        "https://docs.framework-guide.org/guide/overview;v=2",
        "https://docs.framework-guide.org/guide/a%20b/c%2Bd",
        "https://docs.framework-guide.org/guide/...",
        "https://docs.framework-guide.org/guide/overview?q=100%25",
    ],
)
def test_ordinary_paths_stay_valid(url):
    assert check(record(url=url)).state == "valid", check(record(url=url)).records[0].errors


def test_punycode_hosts_are_plain_dns_names():
    assert check(_with_host("xn--bcher-kva.org")).state == "valid"


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
        ("3fff::1", False),
        ("::ffff:0:7f00:1", False),  # SIIT IPv4-translated
    ],
)
def test_is_public_address_unwraps_embedded_ipv4(address, public):
    assert addresses.is_public_address(ipaddress.ip_address(address)) is public


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
        # internationalised and look-alike hosts are never decoded (no IDNA, no NFKC)
        ("https://b\u00fccher.org/guide/overview", "non_ascii"),
        ("https://docs\u3002framework-guide.org/guide/overview", "non_ascii"),
        ("https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/guide/", "non_ascii"),
        # segments that some servers read as '.' or '..': path parameters, double encoding, bad escapes
        ("https://docs.framework-guide.org/guide/..;/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/..;jsessionid=1/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%2e%2e;/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/..%3B/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/.;/overview", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%252e%252e/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%252F..%252Fadmin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%25252e%25252e/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%u002e%u002e/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%zz", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%2", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide/%c0%ae%c0%ae/admin", "ambiguous_path"),
        ("https://docs.framework-guide.org/guide;x/../admin", "outside_prefix"),
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
    assert url_paths.path_within_prefix("/docs", "/docs")
    assert url_paths.path_within_prefix("/docs/", "/docs")
    assert url_paths.path_within_prefix("/docs/a/b", "/docs/")
    assert not url_paths.path_within_prefix("/docs-evil", "/docs")
    assert not url_paths.path_within_prefix("/docsx/a", "/docs")
    assert url_paths.path_within_prefix("/anything", "/")


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
    assert url_paths.normalise_path(raw) == normalised


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
    ok, reason = netguard.check_url_in_scope(
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
        ok, reason = netguard.check_url_in_scope(
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


# ------------------------------------------------------------- properties over arbitrary input
# The oracle below is independent of the module: glibc's inet_aton (the resolver's own reading
# of numeric hosts, a local parse, no lookup) and the IANA special-purpose registries.
_INET_ATON = socket.inet_aton  # captured before the no_network fixture replaces it
_IDNA_ENCODE = idna.encode  # httpx (the oracle's view of a URL, not the validator) needs it


def _httpx_url(url: str, join: str | None = None) -> httpx.URL:
    """httpx's reading of a URL, with IDNA available to httpx only while it parses."""
    with mock.patch.object(idna, "encode", _IDNA_ENCODE):  # .raw_host below never decodes
        parsed = httpx.URL(url)
        return parsed.join(join) if join is not None else parsed


_NON_GLOBAL_V4 = tuple(
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
    )
)
_V6 = ipaddress.IPv6Network
_NON_GLOBAL_V6 = (_V6("2001:db8::/32"), _V6("3fff::/20"), _V6("2001:2::/48"), _V6("2001:10::/28"))
_LOW32_V6 = (
    _V6("::/96"),
    _V6("::ffff:0:0/96"),
    _V6("::ffff:0:0:0/96"),
    _V6("64:ff9b::/96"),
    _V6("64:ff9b:1::/48"),
)
_INTERNAL_NAMES = (
    "localhost",
    "local",
    "internal",
    "corp",
    "lan",
    "home",
    "intranet",
    "arpa",
    "onion",
    "alt",
)


def _reaches_non_global(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True when the address, or any IPv4 address a translator would extract from it, is not global."""
    if isinstance(address, ipaddress.IPv4Address):
        return any(address in net for net in _NON_GLOBAL_V4)
    n = int(address)
    embedded = []
    if any(address in net for net in _LOW32_V6):
        embedded.append(n & 0xFFFFFFFF)
    if address in _V6("2002::/16"):
        embedded.append((n >> 80) & 0xFFFFFFFF)
    if address in _V6("2001::/32"):  # Teredo: server, and the obfuscated client
        embedded += [(n >> 64) & 0xFFFFFFFF, ~n & 0xFFFFFFFF]
    if embedded:
        return any(_reaches_non_global(ipaddress.IPv4Address(e)) for e in embedded)
    return address not in _V6("2000::/3") or any(address in net for net in _NON_GLOBAL_V6)


def _ipv4_spellings(n: int) -> list[str]:
    o = n.to_bytes(4, "big")
    return [
        ".".join(map(str, o)),
        str(n),
        hex(n),
        hex(n).upper().replace("X", "x"),
        "0" + oct(n)[2:],
        ".".join(f"0{b:o}" for b in o),
        ".".join(hex(b) for b in o),
        f"{o[0]}.{int.from_bytes(o[1:], 'big')}",
        f"{o[0]}.{o[1]}.{int.from_bytes(o[2:], 'big')}",
        ".".join(map(str, o)) + ".",
    ]


_v4_int = st.sampled_from(_NON_GLOBAL_V4 + (ipaddress.IPv4Network("8.8.8.0/24"),)).flatmap(
    lambda net: st.integers(int(net.network_address), int(net.broadcast_address))
)
_v6_text = st.one_of(
    _v4_int.map(lambda n: f"::ffff:{ipaddress.IPv4Address(n)}"),
    _v4_int.map(lambda n: str(ipaddress.IPv6Address((0x64FF9B << 96) | n))),
    _v4_int.map(lambda n: str(ipaddress.IPv6Address((0x2002 << 112) | (n << 80) | 1))),
    st.tuples(_v4_int, _v4_int).map(
        lambda p: str(
            ipaddress.IPv6Address((0x20010000 << 96) | (p[0] << 64) | (~p[1] & 0xFFFFFFFF))
        )
    ),
    st.sampled_from(
        ("::1", "::", "fe80::1", "fc00::1", "ff02::1", "2001:db8::1", "3fff::1", "2606:4700::1111")
    ),
    st.integers(0, 2**128 - 1).map(lambda n: str(ipaddress.IPv6Address(n))),
)
_host = st.one_of(
    _v4_int.flatmap(lambda n: st.sampled_from(_ipv4_spellings(n))),
    _v6_text.map(lambda h: f"[{h}]"),
    st.sampled_from(
        (
            "docs.framework-guide.org",
            "DOCS.Framework-Guide.org",
            "localhost",
            "a.localhost",
            "metadata.google.internal",
            "xn--bcher-kva.org",
            "guide.local",
            "docs.1",
            "0x7f",
            "docs.framework-guide.org.evil.org",
            "evil.org",
            "[fe80::1%25eth0]",
            "b\u00fccher.org",
        )
    ),
    st.text(alphabet="0123456789abcdefxX.-:[]%_", max_size=24),
)
_piece = st.one_of(
    st.sampled_from(
        (
            "/",
            "//",
            "/.",
            "/..",
            "/guide",
            "/guide-evil",
            "%2e",
            "%2E",
            "%2f",
            "%5c",
            "%25",
            "%252e",
            "%3b",
            ";",
            "..;",
            "..",
            ".",
            "?",
            "#",
            "@",
            ":",
            "\\",
            " ",
            "\t",
            "%00",
            "%zz",
            "%u002e",
            "%c0%ae",
            "\u00e9",
            "//evil.org",
        )
    ),
    st.text(max_size=4),
)
_url = st.one_of(
    st.builds(
        lambda scheme, userinfo, host, port, path: scheme + userinfo + host + port + "".join(path),
        st.sampled_from(("https://", "HTTPS://", "http://", "https:", "https:///", "ftp://", "")),
        st.sampled_from(("", "", "", "user@", "user:pw@", ":@")),
        _host,
        st.sampled_from(("", "", ":443", ":0443", ":+443", ":8443", ":", ":99999", ":0x1bb")),
        st.lists(_piece, max_size=8),
    ),
    st.text(max_size=80),
)
_PROPERTY = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_PROPERTY_SMALL = settings(_PROPERTY, max_examples=120)  # generating nested JSON is the slow part


def _assert_safe_target(url: str, *, prefix: str) -> None:
    """What httpx would connect to and request for ``url`` is a global target inside the prefix."""
    sent = _httpx_url(url)
    assert str(sent) == url and sent.scheme == "https" and not sent.userinfo
    host = sent.raw_host.decode(
        "ascii"
    )  # the name as sent and resolved (.host would IDNA-decode it)
    if ":" in host:
        assert not _reaches_non_global(ipaddress.IPv6Address(host)), url
    else:
        try:
            numeric = ipaddress.IPv4Address(_INET_ATON(host))
        except OSError:
            labels = host.split(".")
            assert (
                len(labels) >= 2 and labels[-1] not in _INTERNAL_NAMES and "localhost" not in labels
            ), url
        else:
            assert host == str(numeric) and not _reaches_non_global(numeric), url
    path = sent.raw_path.decode("ascii").split("?", 1)[0]
    segments = [s.split(";", 1)[0] for s in re.sub("%2e", ".", path, flags=re.I).split("/")]
    assert "." not in segments and ".." not in segments, url
    base = prefix.rstrip("/")
    assert not base or path == base or path.startswith(base + "/"), url


@_PROPERTY
@given(url=_url)
@example(url="https://docs.framework-guide.org/guide/..;/admin")
@example(url="https://0x7f000001/guide/")
@example(url="https://[::ffff:169.254.169.254]/guide/")
def test_property_no_url_spelling_reaches_a_non_global_target_or_leaves_the_prefix(url):
    for origin, prefix in (("https://docs.framework-guide.org", "/guide"), (None, "/")):
        if origin is None:  # accept the URL's own host, so the host rules alone are tested
            try:
                host = _httpx_url(url).raw_host.decode("ascii")
            except (httpx.InvalidURL, ValueError):  # httpx refused it; nothing to compare
                continue
            origin = f"https://[{host}]" if ":" in host else f"https://{host}"
        checked, reason = netguard.check_url_in_scope(
            url, allowed_origin=origin, allowed_path_prefix=prefix, allowed_ports=frozenset()
        )
        if checked is None:
            assert reason and not schema.CONTROL_RE.search(reason)
        else:
            _assert_safe_target(checked, prefix=prefix)


@_PROPERTY
@given(location=_url)
@example(location="/guide/%2e%2e;/admin")
@example(location="//169.254.169.254/guide/")
def test_property_no_redirect_location_escapes_once_joined(location):
    """What the fetcher does with a Location: join it to the request URL, then check it."""
    try:
        target = str(_httpx_url("https://docs.framework-guide.org/guide/page", join=location))
    except (httpx.InvalidURL, ValueError):
        return  # the fetcher maps these to "redirected to a malformed URL"
    checked, _ = netguard.check_url_in_scope(
        target,
        allowed_origin="https://docs.framework-guide.org",
        allowed_path_prefix="/guide",
        allowed_ports=frozenset(),
    )
    if checked is not None:
        _assert_safe_target(checked, prefix="/guide")
        sent = _httpx_url(checked)
        assert sent.raw_host == b"docs.framework-guide.org" and sent.port is None


_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
_json = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)
_field_value = {name: st.one_of(_json, st.just(record()[name])) for name in schema.REQUIRED_FIELDS}
_field_value["url"] = st.one_of(_url, _json, st.just(record()["url"]))
_field_value["allowed_origin"] = st.one_of(_url, st.just(record()["allowed_origin"]))
_field_value["query_terms"] = st.one_of(_json, st.lists(st.text(max_size=90), max_size=30))
_record = st.fixed_dictionaries({}, optional=_field_value)
_registry = st.one_of(
    st.fixed_dictionaries(
        {"sources": st.lists(st.one_of(_record, _json), max_size=4)},
        optional={"registry_version": _json, "owner": _json},
    ),
    _json,
)


@_PROPERTY_SMALL
@given(data=_registry, production=st.booleans())
def test_property_any_json_registry_is_reported_never_raised(data, production):
    text = json.dumps(data)
    for report in (
        v.validate_registry_text(text, production=production),
        v.validate_registry_data(data, production=production),
    ):
        assert report.state in ("valid", "invalid", "empty")
        # handled on purpose, not by the last-resort catch-all
        assert "unreadable" not in {i.code for i in report.document_errors}
        json.dumps(report.to_dict())
        assert report.summary()
        for issue in report.document_errors + tuple(
            i for r in report.records for i in r.errors + r.warnings
        ):
            assert issue.message and not schema.CONTROL_RE.search(issue.message)
        for rec in report.valid_records:
            # the fetcher's own check agrees with the validator, and the target is safe
            again, _ = netguard.check_url_in_scope(
                rec.url,
                allowed_origin=rec.allowed_origin,
                allowed_path_prefix=rec.allowed_path_prefix,
                allowed_ports=frozenset(),
            )
            assert again == rec.url
            _assert_safe_target(rec.url, prefix=rec.allowed_path_prefix)


@_PROPERTY_SMALL
@given(text=st.text(max_size=300) | _json.map(json.dumps).map(lambda s: s[: len(s) // 2]))
def test_property_any_text_is_reported_never_raised(text):
    report = v.validate_registry_text(text, production=True)
    assert report.state in ("invalid", "empty", "valid")
    assert "unreadable" not in {i.code for i in report.document_errors}
