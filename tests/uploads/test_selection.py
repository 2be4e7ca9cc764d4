"""Excerpt selection: package grounding first, relevant segments in turns, honest cut counts."""

from __future__ import annotations

from core import tokens
from tests.uploads.helpers import sources_from
from uploads import selection


def _numbered(n: int, topic: str = "filler") -> bytes:
    return "\n\n".join(
        f"Paragraph {i} talks about {topic} number {i}." for i in range(1, n + 1)
    ).encode()


def test_small_sources_go_whole_in_document_order() -> None:
    sources = sources_from(("a.txt", b"First para.\n\nSecond para."), ("b.txt", b"Only para."))
    picked = selection.select(
        sources=sources, question="anything", package_text="", package_tokens=0
    )
    assert [(e.record.session_source_id, e.anchor.line_range) for e in picked.excerpts] == [
        ("session-file-001", "1"),
        ("session-file-001", "3"),
        ("session-file-002", "1"),
    ]
    assert picked.selected_source_count == 2
    assert picked.truncated_source_count == 0 and picked.refused_source_count == 0
    assert picked.selected_token_count == sum(e.tokens for e in picked.excerpts) > 0
    assert not picked.cut


def test_large_sources_give_relevant_segments_in_turns_and_are_reported_truncated() -> None:
    doc_a = _numbered(40) + b"\n\nThe rollback plan names the platform owner."
    doc_b = _numbered(40) + b"\n\nOur rollback drill runs monthly."
    sources = sources_from(("a.txt", doc_a), ("b.txt", doc_b))
    # The package leaves too little for 82 paragraphs: the sources must be cut.
    picked = selection.select(
        sources=sources,
        question="What is the rollback plan?",
        package_text="",
        package_tokens=selection.CONTEXT_TOKEN_BUDGET - 1_000,
        max_excerpts=4,
    )
    texts = [e.text for e in picked.excerpts]
    assert "The rollback plan names the platform owner." in texts
    assert "Our rollback drill runs monthly." in texts
    assert len(picked.excerpts) <= 4
    assert picked.truncated_source_count == 2 and picked.cut


def test_package_grounding_has_first_claim_on_the_budget() -> None:
    sources = sources_from(("a.txt", _numbered(5)))
    starved = selection.select(
        sources=sources,
        question="filler",
        package_text="",
        package_tokens=selection.CONTEXT_TOKEN_BUDGET,
    )
    assert starved.excerpts == () and starved.refused_source_count == 1 and starved.cut
    assert starved.telemetry() == {
        "selected_uploaded_source_count": 0,
        "selected_uploaded_source_token_count": 0,
        "truncated_uploaded_source_count": 0,
        "refused_uploaded_source_count": 1,
    }
    roomy = selection.select(sources=sources, question="filler", package_text="", package_tokens=0)
    assert len(roomy.excerpts) == 5


def test_selection_stays_within_what_the_package_left() -> None:
    sources = sources_from(("a.txt", _numbered(60, "gateway routes")))
    left = 600
    picked = selection.select(
        sources=sources,
        question="gateway routes",
        package_text="",
        package_tokens=selection.CONTEXT_TOKEN_BUDGET - left,
    )
    assert picked.excerpts
    overhead = selection.REF_OVERHEAD_TOKENS + 2 * tokens.count("a.txt")
    assert sum(e.tokens + overhead for e in picked.excerpts) <= left
    assert picked.selected_token_count == sum(tokens.count(e.text) for e in picked.excerpts)


def test_package_terms_pick_relevant_segments_when_the_question_is_generic() -> None:
    doc = _numbered(40) + b"\n\nRetention: uploads are deleted at logout."
    sources = sources_from(("a.txt", doc))
    picked = selection.select(
        sources=sources,
        question="review this",
        package_text="Retention periods for every store.",
        package_tokens=selection.CONTEXT_TOKEN_BUDGET - 1_000,
        max_excerpts=2,
    )
    assert "Retention: uploads are deleted at logout." in [e.text for e in picked.excerpts]
    assert len(picked.excerpts) <= 2 and picked.cut


def _draft_of(chars: int) -> bytes:
    """A draft of about ``chars`` characters in many short paragraphs (more than MAX_EXCERPTS)."""
    paragraphs, i = [], 0
    while sum(len(p) + 2 for p in paragraphs) < chars:
        i += 1
        paragraphs.append(
            f"Section {i}: the team records decision {i}, its owner and the evidence behind it."
        )
    return "\n\n".join(paragraphs).encode()


def test_a_draft_that_fits_goes_whole_however_many_paragraphs_it_has() -> None:
    draft = _draft_of(4_500)
    assert 4_500 <= len(draft) < 4_600
    sources = sources_from(("draft.txt", draft))
    (source,) = sources
    assert len(source.segments) > selection.MAX_EXCERPTS
    picked = selection.select(
        sources=sources, question="review this draft", package_text="", package_tokens=1_500
    )
    assert [e.text for e in picked.excerpts] == [s.text for s in source.segments]
    assert picked.truncated_source_count == 0 and picked.refused_source_count == 0
    assert not picked.cut


def test_the_same_draft_is_cut_when_it_does_not_fit() -> None:
    sources = sources_from(("draft.txt", _draft_of(4_500)))
    picked = selection.select(
        sources=sources,
        question="review this draft",
        package_text="",
        package_tokens=selection.CONTEXT_TOKEN_BUDGET - 800,
    )
    assert 0 < len(picked.excerpts) < len(sources[0].segments)
    assert picked.truncated_source_count == 1 and picked.cut
