"""PDF text re-flowed into paragraphs before sentences are split: no line fragments, no hyphen breaks."""

from __future__ import annotations

from assistant.package.sentences import split_sentences
from tests.uploads.builders import text_pdf
from uploads.extraction import extract_upload
from uploads.extraction.reflow import reflow
from uploads.limits import LIMITS

WRAPPED = [
    "Problem statement",
    "Legal reviewers spend hours finding the clauses that matter in order to describe an",
    "obligation, and the assistant must quote the contract exactly rather than para-",
    "phrase it, because reviewers check every quote against the signed document.",
    "Each answer cites the page it quotes.",
    "",
    "- The gateway route is cleared for confidential data.",
    "- Sign-in uses the approved identity provider.",
]


def test_lines_of_one_paragraph_are_joined_and_line_end_hyphens_undone() -> None:
    assert reflow("\n".join(WRAPPED)).split("\n") == [
        "Problem statement",
        "Legal reviewers spend hours finding the clauses that matter in order to describe an "
        "obligation, and the assistant must quote the contract exactly rather than paraphrase "
        "it, because reviewers check every quote against the signed document. Each answer cites "
        "the page it quotes.",
        "- The gateway route is cleared for confidential data.",
        "- Sign-in uses the approved identity provider.",
    ]


def test_a_hyphen_before_a_capital_or_a_number_is_kept() -> None:
    text = (
        "The proposal compares the gateway offered by the platform team with the one run by the Euro-\n"
        "Zone operations group and the ISO-\n"
        "27001 audit scope."
    )
    joined = reflow(text)
    assert "Euro- Zone" in joined and "ISO- 27001" in joined


def test_pdf_sentences_are_whole_sentences_not_line_fragments() -> None:
    extracted = extract_upload(
        text_pdf([WRAPPED]), filename="prd.pdf", session_remaining=LIMITS.session_chars
    )
    sentences = split_sentences(extracted.text)
    assert (
        "Legal reviewers spend hours finding the clauses that matter in order to describe an "
        "obligation, and the assistant must quote the contract exactly rather than paraphrase it, "
        "because reviewers check every quote against the signed document."
    ) in sentences
    assert not any(s.endswith("describe an.") for s in sentences)
    assert "Each answer cites the page it quotes." in sentences
