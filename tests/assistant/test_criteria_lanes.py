"""The review lanes the offline provider writes: what the uploaded lane quotes when nothing matched."""

from __future__ import annotations

from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.review.criteria_lanes import uploaded_lane


def _request(text: str) -> ProviderRequest:
    upload = SourceRef(
        "U1",
        lanes.UPLOADED_CITATION,
        "notes.pdf",
        text,
        meta={"display_title": "notes.pdf", "anchor": "page 1"},
    )
    return ProviderRequest(
        mode=Mode.PACKAGE_ONLY,
        question="Review this draft.",
        lane_order=(),
        package_refs=(),
        uploaded_refs=(upload,),
    )


def test_with_no_evidence_the_lane_quotes_the_first_sentence_sent() -> None:
    text = "Intro.\nThe service keeps every upload in the session only.\nMore follows here."
    assert uploaded_lane(_request(text), ()) == (
        'notes.pdf, page 1: "The service keeps every upload in the session only." [U1]'
    )


def test_an_excerpt_of_short_lines_is_quoted_by_its_first_line_not_run_together() -> None:
    # No line is long enough to be a sentence: the quote is one line of the source, never the
    # lines joined into one ("Some text. Line 1 Line 2 ..."), which the source does not say.
    text = "\nSome text.\nLine 1\nLine 2\nNot highlighted"
    assert uploaded_lane(_request(text), ()) == 'notes.pdf, page 1: "Some text." [U1]'
