"""Fuzzing the upload extractors: any bytes under any name end in text within limits or a refusal.

Runs once the session-upload extractors exist (skipped only while ``uploads.extraction.dispatch``
is absent). Inputs are random bytes and mutations of real files built here (a PDF from pypdf, a
DOCX from python-docx, CSV, TSV, JSON, Markdown), under every supported extension and some others.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

dispatch = pytest.importorskip(
    "uploads.extraction.dispatch",
    reason="the upload extractors (branch `uploads`) are not in this tree",
)
from uploads.limits import LIMITS  # noqa: E402
from uploads.rejections import Reason, SourceRefused  # noqa: E402


def _pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _docx() -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("Proposal", level=1)
    document.add_paragraph("The product owner owns the stage gate decision.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "risk"
    table.cell(1, 1).text = "owner"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


SEEDS = [
    _pdf(),
    _docx(),
    b"owner,gate\nproduct owner,gate 1\nrisk owner,gate 2\n",
    b"owner\tgate\nproduct owner\tgate 1\n",
    b'{"gates": [{"owner": "product owner", "n": 1}, {"owner": null}]}',
    b"# Draft\n\n## Stage gates\n\nThe product owner decides.\n",
]
NAMES = [
    "draft.txt",
    "draft.md",
    "draft.pdf",
    "draft.docx",
    "draft.csv",
    "draft.tsv",
    "draft.json",
    "draft",
    "draft.exe",
    "draft.PDF",
    "draft.tar.gz",
    "../draft.md",
    "draft.md.exe",
]


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(0, 8))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "cut", "insert"]))
        if action == "flip":
            data[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
    return bytes(data)


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(
    data=st.binary(max_size=600) | mutated(),
    filename=st.sampled_from(NAMES),
    session_remaining=st.none() | st.integers(0, LIMITS.session_chars),
)
def test_any_upload_gives_text_within_limits_or_a_named_refusal(
    data, filename, session_remaining
) -> None:
    try:
        result = dispatch.extract_upload(
            data, filename=filename, session_remaining=session_remaining
        )
    except SourceRefused as refusal:
        assert refusal.code in {r.value for r in Reason}
        assert 400 <= refusal.status_code < 500
        assert refusal.message
        return
    assert result.file_type in dispatch.SUPPORTED_EXTENSIONS
    assert filename.lower().endswith("." + result.file_type)
    assert len(result.text) <= dispatch.HARD_CHAR_CAP
    if session_remaining is not None:
        assert len(result.text) <= session_remaining
    if result.file_type in dispatch.TABULAR:
        assert len(result.text) <= LIMITS.tabular_chars
