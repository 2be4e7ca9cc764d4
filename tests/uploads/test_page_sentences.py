"""Sentences a PDF page break cuts: read whole on the page where they start, text left as stored."""

from __future__ import annotations

import pytest

from assistant.review import upload_sentences
from tests.uploads.builders import text_pdf
from tests.uploads.helpers import sources_from
from uploads.page_sentences import page_joins
from uploads.segments import segments_of


def _joins(text: str) -> list[tuple[int, int, str]]:
    segments = segments_of("pdf", text, {})
    return [(j.position, j.continued, j.head) for j in page_joins("pdf", text, segments).values()]


def test_a_page_ending_mid_sentence_is_read_with_the_next_page_s_opening_words() -> None:
    text = (
        "Scope\nThe gateway keeps every upload in the session and writes"
        "\fnothing to disk at any time. Logs hold no upload text at all, by design."
    )
    assert _joins(text) == [(0, 1, "nothing to disk at any time.")]


@pytest.mark.parametrize(
    "text",
    [
        "The first page ends its sentence here.\fand the next page starts in lower case.",
        "The first page ends without a stop\fNew heading on the next page",
        "The first page ends without a stop and then\f12\nthe next page opens with its number",
        "The first page ends without a stop and then\n3\fthe next page goes on in lower case",
        # A running header (the same first line on every page) sits between the halves.
        "draft for review\nThe first page ends without a stop and then\f"
        "draft for review\nthe page goes on\fdraft for review\nmore words here",
    ],
)
def test_no_join_across_a_full_stop_a_capital_a_page_number_or_a_running_header(
    text: str,
) -> None:
    assert _joins(text) == []


def test_only_pdf_pages_are_joined() -> None:
    text = "A line that ends without a stop\nand a line that goes on."
    assert page_joins("txt", text, segments_of("txt", text, {})) == {}


def test_the_review_reads_the_cut_sentence_once_whole_and_the_stored_text_is_unchanged() -> None:
    pages = [
        [
            "This proposal describes a contract review assistant for legal reviewers.",
            "The service keeps each uploaded contract in the session and writes",
        ],
        ["nothing to disk at any time. Every log line holds metadata only, never the text."],
    ]
    [source] = sources_from(("Proposal.pdf", text_pdf(pages)))
    assert source.text.count("\f") == 1
    assert [s.anchor.page for s in source.segments] == [1, 2]
    read = [
        (s.text, s.anchor, s.position, s.continued) for s in upload_sentences.sentences((source,))
    ]
    assert read == [
        (
            "This proposal describes a contract review assistant for legal reviewers.",
            "page 1",
            0,
            None,
        ),
        (
            "The service keeps each uploaded contract in the session and writes nothing to disk "
            "at any time.",
            "page 1",
            0,
            1,
        ),
        ("Every log line holds metadata only, never the text.", "page 2", 1, None),
    ]
    flat = " ".join(source.text.split())
    assert all(" ".join(text.split()) in flat for text, *_ in read)
