"""Tests for the allowlisted_public_fetch adapter: registry states, selection, limits, fail closed."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from assistant.current import base
from assistant.current.allowlisted import (
    MAX_SNIPPET_CHARS,
    AllowlistedPublicFetchAdapter,
    best_snippet,
)
from assistant.current.fetch import FetchedDocument, FetchError
from assistant.domain.types import PackageRow
from registry_review.records import SourceRecord
from registry_review.validation import validate_registry_text

ROW = PackageRow(
    row_id="r1",
    title="Risk",
    heading="Owners",
    text="Each risk has a named owner.",
    source_path="risk.md",
    anchor="owners",
    reader_target="/html/risk.md#owners",
    source_family="playbook-doctrine",
    source_quality="approved package guidance",
    claim_boundary="Guidance only.",
    topic="risk",
)
FIXED = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)


def record(
    source_id: str = "nist-ai-rmf-public-framework-candidate", **overrides: object
) -> dict[str, object]:
    return {
        "id": source_id,
        "title": f"Title of {source_id}",
        "url": f"https://www.{source_id}.org/framework/page",
        "allowed_origin": f"https://www.{source_id}.org",
        "allowed_path_prefix": "/framework",
        "source_type": "public framework page",
        "trust_label": "standards",
        "freshness_label": "Reviewed quarterly",
        "claim_boundary": "Public context only.",
        "query_terms": ["risk owner"],
        **overrides,
    }


def registry(*records: object, text: str | None = None):
    body = text if text is not None else json.dumps({"sources": list(records)})
    return lambda: validate_registry_text(body, production=True)


class PageFetcher:
    """Serves fixed text per record id and records which records were fetched."""

    def __init__(self, pages: dict[str, str | Exception]):
        self.pages = pages
        self.fetched: list[str] = []

    def fetch(self, rec: SourceRecord) -> FetchedDocument:
        self.fetched.append(rec.id)
        page = self.pages[rec.id]
        if isinstance(page, Exception):
            raise page
        return FetchedDocument(url=rec.url, media_type="text/html", text=page, byte_count=len(page))


class ExplodingFetcher:
    def fetch(self, rec: SourceRecord) -> FetchedDocument:
        pytest.fail("the adapter fetched although it must not")


def adapter(reg, fetcher) -> AllowlistedPublicFetchAdapter:
    return AllowlistedPublicFetchAdapter(fetcher=fetcher, registry=reg, clock=lambda: FIXED)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "No current-source registry is configured"),
        ('{"sources": []}', "No current-source registry is configured"),
        ('{"sources": [', "not valid JSON"),
        ('{"sources": [{"id": "only-bad"}]}', "no valid source record"),
        (
            json.dumps({"sources": [record(url="https://127.0.0.1/framework/page")]}),
            "no valid source record",
        ),
        (
            json.dumps(
                {
                    "sources": [
                        record(
                            source_id="placeholder",
                            url="https://docs.example.com/framework/x",
                            allowed_origin="https://docs.example.com",
                        )
                    ]
                }
            ),
            "no valid source record",
        ),
    ],
)
def test_missing_invalid_empty_or_unsafe_registry_is_unconfigured(text, reason):
    result = adapter(registry(text=text), ExplodingFetcher()).retrieve(
        question="Who is the risk owner?", package_rows=(ROW,)
    )
    assert result.state == base.UNCONFIGURED
    assert reason in result.detail
    assert result.refs == () and result.attempted is False


def test_invalid_records_are_dropped_and_valid_ones_kept():
    fetcher = PageFetcher(
        {"good-source": "The framework says each risk owner reviews residual risk yearly."}
    )
    reg = registry(
        record("good-source"), record("bad-source", url="http://www.bad-source.org/framework/page")
    )
    result = adapter(reg, fetcher).retrieve(
        question="What does a risk owner do?", package_rows=(ROW,)
    )
    assert result.state == base.RETRIEVED
    assert fetcher.fetched == ["good-source"]
    assert "Dropped registry records: 1." in result.detail


def test_no_package_support_means_no_fetch():
    result = adapter(registry(record()), ExplodingFetcher()).retrieve(
        question="Who is the risk owner?", package_rows=()
    )
    assert result.state == base.NOT_RETRIEVED and not result.attempted


def test_unmatched_question_is_not_retrieved_without_fetching():
    result = adapter(registry(record("other-source")), ExplodingFetcher()).retrieve(
        question="How big should the token budget be?", package_rows=(ROW,)
    )
    assert result.state == base.NOT_RETRIEVED
    assert "No source in the owner-approved registry matches" in result.detail


def test_retrieved_ref_carries_every_metadata_field():
    page = "Intro line that says nothing. The framework expects a named risk owner for each AI risk. Unrelated closing sentence here."
    fetcher = PageFetcher({"nist-ai-rmf-public-framework-candidate": page})
    result = adapter(registry(record()), fetcher).retrieve(
        question="What does the NIST AI RMF expect of a risk owner?", package_rows=(ROW,)
    )
    assert result.state == base.RETRIEVED and result.attempted
    (ref,) = result.refs
    assert ref.source_id == "nist-ai-rmf-public-framework-candidate"
    assert ref.url == "https://www.nist-ai-rmf-public-framework-candidate.org/framework/page"
    assert (ref.source_type, ref.trust_label, ref.freshness_label) == (
        "public framework page",
        "standards",
        "Reviewed quarterly",
    )
    assert ref.claim_boundary == "Public context only."
    assert ref.retrieved_at == "2025-03-04T05:06:07+00:00"
    assert ref.snippet == "The framework expects a named risk owner for each AI risk."


def test_at_most_three_sources_are_fetched():
    ids = [f"source-{i}" for i in range(5)]
    fetcher = PageFetcher({i: f"The risk owner text for {i} is long enough to quote." for i in ids})
    result = adapter(registry(*(record(i) for i in ids)), fetcher).retrieve(
        question="Who is the risk owner?", package_rows=(ROW,)
    )
    assert len(fetcher.fetched) == 3 and len(result.refs) == 3


def test_every_failure_fails_closed_with_reasons_and_no_refs():
    fetcher = PageFetcher(
        {
            "source-a": FetchError("the response is larger than 1,000,000 bytes"),
            "source-b": FetchError("unsupported content type 'image/png'"),
        }
    )
    result = adapter(registry(record("source-a"), record("source-b")), fetcher).retrieve(
        question="Who is the risk owner?", package_rows=(ROW,)
    )
    assert result.state == base.FAIL_CLOSED and result.refs == () and result.attempted
    assert "source-a: the response is larger than 1,000,000 bytes" in result.detail
    assert "source-b: unsupported content type 'image/png'" in result.detail
    assert "no current claim is made" in result.detail


def test_partial_failure_keeps_the_retrieved_source_and_reports_the_other():
    fetcher = PageFetcher(
        {
            "source-a": FetchError("the source answered HTTP 500"),
            "source-b": "The risk owner signs residual risk acceptance.",
        }
    )
    result = adapter(registry(record("source-a"), record("source-b")), fetcher).retrieve(
        question="Who is the risk owner?", package_rows=(ROW,)
    )
    assert result.state == base.RETRIEVED
    assert [r.source_id for r in result.refs] == ["source-b"]
    assert "Failed closed: source-a: the source answered HTTP 500." in result.detail


def test_an_unexpected_error_still_fails_closed_and_logs_no_question(caplog):
    question = "Who is the risk owner for project Zephyr-7?"
    fetcher = PageFetcher({"source-a": RuntimeError(f"bug while handling {question}")})
    result = adapter(registry(record("source-a")), fetcher).retrieve(
        question=question, package_rows=(ROW,)
    )
    assert result.state == base.FAIL_CLOSED and result.refs == ()
    assert "RuntimeError" in caplog.text and "Zephyr" not in caplog.text


def test_snippets_are_capped_at_1200_characters():
    sentence = "The risk owner reviews each residual risk and records the decision with a date. "
    snippet = best_snippet(sentence * 100, "What does the risk owner review?")
    assert len(snippet) <= MAX_SNIPPET_CHARS
    assert snippet.startswith("The risk owner reviews")
    long_line = "risk " * 1000
    assert len(best_snippet(long_line, "risk")) <= MAX_SNIPPET_CHARS


def test_snippet_prefers_matching_sentences_in_page_order():
    text = (
        "Welcome to the framework site for everyone.\n"
        "Owners must review model drift monthly and record it.\n"
        "Cookie settings and privacy notice for this site.\n"
        "A risk owner accepts residual risk with a date and a reason."
    )
    assert best_snippet(text, "What does a risk owner accept, and how is drift reviewed?") == (
        "Owners must review model drift monthly and record it. "
        "A risk owner accepts residual risk with a date and a reason."
    )


def test_get_adapter_builds_the_registered_adapter(settings):
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    assert isinstance(base.get_adapter(), AllowlistedPublicFetchAdapter)


@pytest.mark.parametrize(
    "page",
    [
        FetchError("the source answered HTTP 500"),
        "The risk owner signs residual risk acceptance for Zephyr-7 here.",
    ],
    ids=["fail_closed", "retrieved"],
)
def test_detail_and_logs_never_carry_the_question(page, caplog):
    question = "Who is the risk owner for project Zephyr-7 (secret codename)?"
    result = adapter(registry(record("source-a")), PageFetcher({"source-a": page})).retrieve(
        question=question, package_rows=(ROW,)
    )
    assert result.state in (base.FAIL_CLOSED, base.RETRIEVED)
    assert "secret codename" not in result.detail and "Zephyr" not in result.detail
    assert "Zephyr" not in caplog.text


def test_get_adapter_is_built_once_per_setting(settings):
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    first = base.get_adapter()
    assert base.get_adapter() is first
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "disabled"
    assert isinstance(base.get_adapter(), base.DisabledAdapter)
