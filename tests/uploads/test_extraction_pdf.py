"""PDF extraction: page anchors, and refusal of encrypted, image-only, malformed and bomb PDFs."""

from __future__ import annotations

import io
import zlib

import pytest
from pypdf import PdfReader, PdfWriter

from tests.uploads.builders import build_pdf, text_content, text_pdf, text_pdf_of_size
from uploads.anchors import Anchor
from uploads.extraction import extract_upload
from uploads.extraction.pdf import STREAM_OUTPUT_BYTES
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.segments import segments_of

THREE_PAGES = [
    ["Draft PRD: contract review assistant", "Problem statement: reviewers lose hours."],
    ["Data boundary: contracts are confidential."],
    ["Owner: the product owner decides scope."],
]


def _extract(data: bytes, name: str = "prd.pdf", remaining: int | None = LIMITS.session_chars):
    return extract_upload(data, filename=name, session_remaining=remaining)


def _refusal(data: bytes, **kwargs) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        _extract(data, **kwargs)
    return info.value


@pytest.mark.parametrize("compress", [False, True])
def test_three_page_pdf_gives_one_anchor_per_page(compress: bool) -> None:
    extracted = _extract(text_pdf(THREE_PAGES, compress=compress))
    assert extracted.file_type == "pdf" and extracted.method == "local_pdf_text_extract"
    assert extracted.confidence == "high" and extracted.anchors_available == ("page",)
    segments = segments_of("pdf", extracted.text, extracted.meta)
    assert [(s.anchor, s.text) for s in segments] == [
        (
            Anchor(page=1),
            "Draft PRD: contract review assistant\nProblem statement: reviewers lose hours.",
        ),
        (Anchor(page=2), "Data boundary: contracts are confidential."),
        (Anchor(page=3), "Owner: the product owner decides scope."),
    ]


def test_a_page_without_text_keeps_later_page_numbers_and_makes_it_partial() -> None:
    pdf = build_pdf([text_content(["Page one text."]), b"", text_content(["Page three text."])])
    extracted = _extract(pdf)
    assert extracted.confidence == "partial" and extracted.status == "partially extracted"
    anchors = [s.anchor.page for s in segments_of("pdf", extracted.text, {})]
    assert anchors == [1, 3]


def test_image_only_pdf_is_refused() -> None:
    pdf = build_pdf([b"q 200 0 0 200 72 500 cm /Im1 Do Q"] * 2, with_image=True)
    error = _refusal(pdf)
    assert error.code == "image_only" and error.status_code == 400
    assert "OCR is not supported" in error.message


def _encrypted(user_password: str) -> bytes:
    writer = PdfWriter(clone_from=io.BytesIO(text_pdf(THREE_PAGES)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_owner_password_only_pdf_is_refused_although_it_would_extract() -> None:
    data = _encrypted(user_password="")
    reader = PdfReader(io.BytesIO(data))
    assert reader.is_encrypted and "Draft PRD" in reader.pages[0].extract_text()
    error = _refusal(data)
    assert error.code == "encrypted" and error.status_code == 400


def test_user_password_pdf_is_refused() -> None:
    assert _refusal(_encrypted(user_password="user-secret")).code == "encrypted"


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n",
        text_pdf(THREE_PAGES)[:200],
        b"%PDF-1.7\n" + bytes(range(256)) * 8,
    ],
    ids=["no-pages", "truncated", "garbage-body"],
)
def test_malformed_pdfs_are_refused_not_crashing(data: bytes) -> None:
    error = _refusal(data)
    assert error.code == "malformed" and error.status_code == 400


def test_decompression_bomb_is_refused_under_the_tightened_limit() -> None:
    bomb = zlib.compress(b" " * (STREAM_OUTPUT_BYTES + 1024 * 1024), 9)
    assert len(bomb) < 20_000  # a 9 MB stream hidden in a few kilobytes
    pdf = build_pdf([text_content(["Harmless first page."]), b""], raw_streams={1: bomb})
    # pypdf's own 75 MB default would have decoded it: the tightening is what refuses it.
    assert PdfReader(io.BytesIO(pdf)).pages[1].extract_text() == ""
    error = _refusal(pdf)
    assert error.code == "decompression_bomb" and error.status_code == 413
    assert "8 MiB" in error.message


def test_page_limit_is_exact() -> None:
    accepted = _extract(text_pdf([[f"Page {n} text."] for n in range(75)]))
    assert accepted.text.count("\f") == 74
    error = _refusal(text_pdf([[f"Page {n} text."] for n in range(76)]))
    assert error.code == "too_large" and "76 pages" in error.message and "75 pages" in error.message


def test_size_limit_is_exact() -> None:
    at_limit = text_pdf_of_size(THREE_PAGES, LIMITS.document_bytes)
    assert _extract(at_limit).text.startswith("Draft PRD")
    over = text_pdf_of_size(THREE_PAGES, LIMITS.document_bytes + 1)
    error = _refusal(over)
    assert error.code == "too_large" and error.status_code == 413
    assert "5 MiB (5,242,880 bytes)" in error.message


def test_session_character_budget_keeps_whole_pages_and_says_which() -> None:
    pdf = text_pdf(THREE_PAGES)
    whole = _extract(pdf)
    length = len(whole.text)
    assert len(_extract(pdf, remaining=length).text) == length
    assert _extract(pdf, remaining=length).kept == ""
    cut = _extract(pdf, remaining=length - 1)
    assert cut.text == whole.text.rsplit("\f", 1)[0]  # pages 1-2, each whole
    assert cut.kept == "pages 1-2 of 3" and cut.status == "truncated"
    error = _refusal(pdf, remaining=len(whole.text.split("\f")[0]) - 1)
    assert error.code == "session_limit" and "120,000 extracted characters" in error.message


@pytest.mark.parametrize(
    ("data", "name", "code"),
    [
        (b"This is plain text, not a PDF.", "prd.pdf", "type_mismatch"),
        (text_pdf(THREE_PAGES), "prd.txt", "type_mismatch"),
    ],
)
def test_pdf_name_and_content_must_agree(data: bytes, name: str, code: str) -> None:
    error = _refusal(data, name=name)
    assert error.code == code and error.status_code == 415


def _placed(*runs: tuple[float, float, float, str]) -> bytes:
    """A content stream placing each (size, x, y, text) run in its own text object, as FPDF2 does."""
    return b"\n".join(
        b"BT /F1 %g Tf %g %g Td (%s) Tj ET" % (size, x, y, text.encode())
        for size, x, y, text in runs
    )


def test_lines_set_closer_than_pypdf_reads_a_line_stay_separate_lines() -> None:
    # 24-point text 19.2 points apart: pypdf alone gives "Line 1Line 2" (its own line test wants
    # more than 0.8 of the font height); the second line starts left of and below the first.
    pdf = build_pdf(
        [_placed((24, 141.73, 700.16, "Line 1"), (24, 31.18, 680.96, "Line 2 follows it."))]
    )
    assert PdfReader(io.BytesIO(pdf)).pages[0].extract_text() == "Line 1Line 2 follows it."
    assert _extract(pdf).text == "Line 1\nLine 2 follows it."


def test_text_moving_left_on_its_line_or_a_little_down_is_not_a_new_line() -> None:
    # A run placed back on the same baseline, and one a subscript's drop below (less than half a
    # font height): neither starts a line. pypdf ran each pair together in content order
    # ("worldHello"); PDFium reads them on one line, in reading order.
    same_line = _placed((12, 300, 700, "world"), (12, 72, 700, "Hello"))
    subscript = _placed((12, 300, 700, "water"), (12, 72, 695, "is H2O"))
    for content, read in ((same_line, "Hello world"), (subscript, "water is H2O")):
        pdf = build_pdf([content])
        plain = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        assert "\n" not in plain
        assert _extract(pdf).text == read
