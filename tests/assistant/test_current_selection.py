"""Tests for assistant.current.selection: registry query terms and the NIST record's aliases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.current.selection import matched_terms, select_sources
from registry_review.records import QueryAlias, SourceRecord

TEMPLATE = Path(__file__).resolve().parents[2] / "docs" / "current_source_registry_template.json"
NIST_SOURCE_ID = "nist-ai-rmf-public-framework-candidate"
#: The shipped template's aliases for the NIST record, as the validator reads them.
NIST_ALIASES = tuple(
    QueryAlias(**alias) for alias in json.loads(TEMPLATE.read_text())["sources"][0]["query_aliases"]
)


def rec(source_id: str, *terms: str, aliases: tuple[QueryAlias, ...] = ()) -> SourceRecord:
    return SourceRecord(
        id=source_id,
        title=source_id,
        url=f"https://{source_id}.org/x",
        allowed_origin=f"https://{source_id}.org",
        allowed_path_prefix="/x",
        source_type="t",
        trust_label="standards",
        freshness_label="f",
        claim_boundary="c",
        query_terms=terms,
        query_aliases=aliases,
    )


NIST = rec(NIST_SOURCE_ID, aliases=NIST_ALIASES)  # no registry terms: only its aliases select it
OTHER = rec("iso-42001-overview", "ISO/IEC 42001", "AI management system")


@pytest.mark.parametrize(
    "question, alias",
    [
        ("How does our risk register compare with NIST?", "NIST"),
        ("Which NIST principles apply to model monitoring?", "NIST principles"),
        ("How does the playbook map to the NIST AI RMF?", "NIST AI RMF"),
        ("What does the AI RMF say about risk owners?", "AI RMF"),
        ("What does the AI-RMF say about risk owners?", "AI RMF"),
        (
            "Does the AI Risk Management Framework expect named owners?",
            "AI Risk Management Framework",
        ),
        (
            "What do risk management frameworks expect from a risk owner?",
            "risk management framework expectations",
        ),
        (
            "What does a governance framework require for decision rights?",
            "risk management framework expectations",
        ),
        (
            "Which principles of AI governance frameworks cover monitoring?",
            "risk management framework expectations",
        ),
    ],
)
def test_nist_aliases_route_natural_phrasings_to_the_nist_record(question, alias):
    assert alias in matched_terms(question, NIST)
    (chosen,) = select_sources(question, (OTHER, NIST))
    assert chosen.record.id == NIST_SOURCE_ID


@pytest.mark.parametrize(
    "question",
    [
        "How should the risk register be maintained?",
        "Who approves residual risk acceptance?",
        "What is the current guidance on token budgets?",
        "What does the playbook say about governance?",
        "Tell me the latest public context on decision rights.",
        "How do ministers enforce compliance?",  # "nist" inside a word does not count
    ],
)
def test_non_nist_questions_never_route_to_nist(question):
    assert matched_terms(question, NIST) == ()
    assert select_sources(question, (NIST,)) == ()


def test_aliases_apply_only_to_the_record_that_carries_them():
    lookalike = rec("nist-copy-under-another-id")
    assert matched_terms("What does the NIST AI RMF say?", lookalike) == ()
    assert matched_terms("What does the NIST AI RMF say?", NIST) == (
        "NIST",
        "NIST AI RMF",
        "AI RMF",
    )


def test_registry_query_terms_select_any_record_on_word_boundaries():
    assert matched_terms("Does ISO/IEC 42001 need an AI management system?", OTHER) == (
        "ISO/IEC 42001",
        "AI management system",
    )
    assert matched_terms("Is an AI management-system required?", OTHER) == ("AI management system",)
    assert matched_terms("What about AI management systemic risk?", OTHER) == ()


def test_at_most_three_sources_most_matches_first():
    records = tuple(
        rec(f"s{i}", "risk owner", *(["residual risk"] if i == 4 else [])) for i in range(6)
    )
    chosen = select_sources("Who is the risk owner for residual risk?", records)
    assert [c.record.id for c in chosen] == ["s4", "s0", "s1"]


def test_record_without_terms_is_never_selected():
    assert select_sources("anything at all about risk", (rec("no-terms"),)) == ()
