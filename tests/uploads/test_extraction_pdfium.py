"""PDF page text through PDFium: what only PDFium gives, the bounds it runs in, and its clean-up.

PDFium reads the text; pypdf decides encryption, reads form fields and checks, before PDFium
loads a page, every stream PDFium will decode for it (uploads/extraction/pdf_structure.py).
"""

from __future__ import annotations

import io
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from core.deadline import Deadline
from tests.uploads.builders import (
    assemble_pdf,
    build_pdf,
    font_stream_pdf,
    form_pdf,
    stream_object,
    text_content,
    text_pdf,
)
from uploads.extraction import extract_upload
from uploads.extraction import pdf_structure as structure
from uploads.extraction.dispatch import HARD_CHAR_CAP
from uploads.extraction.pdfium_text import PDFIUM_LOCK, PdfiumDocument
from uploads.limits import LIMITS, Limits
from uploads.rejections import SourceRefused

CORPUS = Path(__file__).parent / "realdocs"
PROSE = "The reviewers check the data boundary before the proof of concept starts."


def _extract(data: bytes, remaining: int | None = LIMITS.session_chars, **kwargs):
    return extract_upload(data, filename="draft.pdf", session_remaining=remaining, **kwargs)


def _refusal(data: bytes, **kwargs) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        _extract(data, **kwargs)
    return info.value


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts of PDFium's pages loaded and read, and of documents, pages and text pages closed."""
    seen: Counter[str] = Counter()

    def spy(cls: type, name: str) -> None:
        original = getattr(cls, name)

        def wrapper(self, *args, **kwargs):
            seen[f"{cls.__name__}.{name}"] += 1
            return original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, wrapper)

    spy(pdfium.PdfDocument, "__init__")
    spy(pdfium.PdfDocument, "close")
    spy(pdfium.PdfDocument, "get_page")
    spy(pdfium.PdfPage, "get_textpage")
    spy(pdfium.PdfPage, "close")
    spy(pdfium.PdfTextPage, "get_text_range")
    spy(pdfium.PdfTextPage, "close")
    return seen


def test_page_text_comes_from_pdfium_and_never_from_pypdf(
    calls: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_pypdf_text(*args, **kwargs):
        raise AssertionError("pypdf's extract_text was called")

    monkeypatch.setattr(pypdf.PageObject, "extract_text", no_pypdf_text)
    extracted = _extract(text_pdf([["Page one."], ["Page two."], ["Page three."]]))
    assert extracted.text == "Page one.\fPage two.\fPage three."
    assert calls["PdfTextPage.get_text_range"] == 3


def test_text_set_out_of_order_on_a_line_is_read_left_to_right() -> None:
    # Drawn right half first: pypdf reads content order ("worldHello"), PDFium reading order.
    pdf = build_pdf(
        [b"BT /F1 12 Tf 300 700 Td (world) Tj ET\nBT /F1 12 Tf 72 700 Td (Hello) Tj ET"]
    )
    assert pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text() == "worldHello"
    assert _extract(pdf).text == "Hello world"


def test_a_line_end_hyphen_pdfium_joins_is_undone_as_the_reflow_decides() -> None:
    # PDFium removes the break after a line-end hyphen and marks the hyphen (U+FFFE): the break
    # is put back, so "inter-" + "national" joins and "pre-" + "Trade" keeps its hyphen.
    pdf = text_pdf(
        [["The reviewers check the inter-", "national boundary and the pre-", "Trade terms."]]
    )
    text = _extract(pdf).text
    assert text == "The reviewers check the international boundary and the pre- Trade terms."
    assert "\ufffe" not in text and "\x02" not in text


def test_a_many_page_pdf_cut_by_the_session_budget_reads_no_page_past_the_cut(
    calls: Counter[str],
) -> None:
    pages = [[f"Page {n}: {PROSE}"] * 5 for n in range(1, 61)]
    pdf = text_pdf(pages)
    whole = _extract(pdf, remaining=None)
    first_20 = "\f".join(whole.text.split("\f")[:20])
    calls.clear()
    cut = _extract(pdf, remaining=len(first_20))
    assert cut.text == first_20
    assert cut.kept == "pages 1-20 of 60" and cut.status == "truncated"
    assert cut.confidence == "high"
    # Page 21 was read to learn it does not fit; none after it.
    assert calls["PdfTextPage.get_text_range"] == 21


def _dense_pages(count: int) -> bytes:
    """Pages of 1-point text, about 300,000 characters each, all on the page."""
    line = (PROSE + " ") * 8  # 600 characters, 300 points wide in 1-point Helvetica
    ops = [b"BT /F1 1 Tf 1.2 TL 20 780 Td"]
    ops += [b"(" + line.encode() + b") Tj T*"] * 500
    ops.append(b"ET")
    return build_pdf([b"\n".join(ops)] * count, compress=True)


def test_a_pdf_over_the_per_file_character_cap_is_refused_without_reading_on(
    calls: Counter[str],
) -> None:
    pdf = _dense_pages(10)  # about 3 million characters
    error = _refusal(pdf, remaining=None)
    assert error.code == "too_large" and error.status_code == 413
    assert f"{HARD_CHAR_CAP:,} characters" in error.message
    assert calls["PdfTextPage.get_text_range"] == 7  # the seventh page passes 2,000,000


def test_the_time_limit_is_checked_between_pages(
    calls: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = PdfiumDocument.page_text

    def page_text(self, index: int) -> str:
        time.sleep(0.2)
        return slow(self, index)

    monkeypatch.setattr(PdfiumDocument, "page_text", page_text)
    pdf = text_pdf([[f"Page {n}: {PROSE}"] for n in range(10)])
    error = _refusal(pdf, limits=Limits(extraction_seconds=0.5))
    assert error.code == "too_large" and error.status_code == 413
    assert "longer than the 0.5-second limit" in error.message
    assert 2 <= calls["PdfTextPage.get_text_range"] <= 3  # of 10 pages: checked before each
    assert calls["PdfDocument.close"] == 1


def test_waiting_for_another_thread_s_pdfium_is_bounded_by_the_time_limit() -> None:
    with PDFIUM_LOCK:  # another thread is inside PDFium
        with pytest.raises(SourceRefused) as info:
            PdfiumDocument(text_pdf([["Page one."]]), Deadline(0.05))
    assert info.value.code == "too_large" and "0.05-second limit" in info.value.message


def test_a_pdf_pypdf_reads_but_pdfium_rejects_is_refused_as_malformed() -> None:
    pdf = b"\n" * 2000 + text_pdf([["Page one."]])  # PDFium wants the header in the first 1 KiB
    assert len(pypdf.PdfReader(io.BytesIO(pdf), strict=False).pages) == 1
    with pytest.raises(pdfium.PdfiumError):
        pdfium.PdfDocument(pdf)
    error = _refusal(pdf)
    assert error.code == "malformed" and error.status_code == 400


def test_page_trees_the_two_readers_count_differently_are_refused_as_malformed() -> None:
    pdf = text_pdf([["Page one."], ["Page two."]]).replace(b"/Count 2", b"/Count 1")
    error = _refusal(pdf)
    assert error.code == "malformed" and "gives 2 and 1 pages" in error.message


def test_pdfium_s_own_encryption_test_agrees_with_pypdf_s() -> None:
    data = (CORPUS / "pypdf-owner-password-only.pdf").read_bytes()
    assert pypdf.PdfReader(io.BytesIO(data)).is_encrypted
    with PdfiumDocument(data, Deadline(5)) as document:  # it opens without a password
        assert document.encrypted and document.page_text(0).strip()
    assert _refusal(data).code == "encrypted"


def test_forms_drawing_forms_are_refused_before_pdfium_loads_the_page(
    calls: Counter[str],
) -> None:
    bomb = form_pdf(depth=7, fan=10)  # a million form draws in 2 KB
    assert len(bomb) < 3_000
    error = _refusal(bomb)
    assert error.code == "decompression_bomb" and error.status_code == 413
    assert f"more than {structure.FORM_INVOCATIONS} times" in error.message
    assert calls["PdfDocument.get_page"] == 0
    assert calls["PdfDocument.close"] == calls["PdfDocument.__init__"] == 1


def test_forms_within_the_limit_are_read_each_time_they_are_drawn() -> None:
    extracted = _extract(form_pdf(depth=3, fan=10))  # 110 form draws, 100 of the leaf
    assert extracted.text.split("\n")[0] == "Page text"
    assert extracted.text.count("Form text") == 100


def test_a_form_drawn_again_and_again_counts_against_the_page_s_content_bound() -> None:
    leaf = b"BT /F1 10 Tf 72 700 Td (Form text) Tj ET\n" + b"% padding\n" * (1024 * 1024 // 10)
    error = _refusal(form_pdf(depth=2, fan=9, leaf=leaf, compress=True))  # 9 x 1 MiB
    assert error.code == "decompression_bomb" and "8 MiB of content" in error.message
    assert _extract(form_pdf(depth=2, fan=7, leaf=leaf, compress=True)).text.count("Form") == 7


def test_forms_nested_past_the_depth_bound_are_refused() -> None:
    assert _extract(form_pdf(depth=structure.FORM_DEPTH, fan=1)).text.endswith("Form text")
    error = _refusal(form_pdf(depth=structure.FORM_DEPTH + 1, fan=1))
    assert error.code == "malformed" and "nested too deeply" in error.message


def _looping_form_pdf(*, in_glyph: bool) -> bytes:
    """A page whose form XObject (object 4) draws itself twice: PDFium never finishes the page.

    ``in_glyph``: the form is drawn by the glyph procedure of a Type 3 font the page shows
    (PDFium runs glyph procedures as it loads the page), not by the page's content.
    """
    form = stream_object(
        b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X 4 0 R "
        b">> >>",
        b"0 0 m 1 1 l S /X Do /X Do",
    )
    type3 = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 "
        b"0 0] /CharProcs << /a 5 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> "
        b"/FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /XObject << /X 4 0 R >> >> >>"
    )
    glyph = stream_object(b"", b"1000 0 0 0 0 1000 d1 /X Do")
    if in_glyph:
        content = b"BT /T3 12 Tf 72 700 Td (aaa) Tj ET"
    else:
        content = b"BT /T3 12 Tf 72 700 Td (aaa) Tj ET /X Do"
    return assemble_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [7 0 R] /Count 1 >>",
            type3,
            form,
            glyph if in_glyph else stream_object(b"", b"1000 0 0 0 0 1000 d1"),
            stream_object(b"", content),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /T3 3 0 R "
            b">> /XObject << /X 4 0 R >> >> /Contents 6 0 R >>",
        ]
    )


@pytest.mark.parametrize("in_glyph", [False, True], ids=["page", "type3-glyph"])
def test_a_form_that_draws_itself_is_refused_before_pdfium_loads_the_page(
    calls: Counter[str], in_glyph: bool
) -> None:
    error = _refusal(_looping_form_pdf(in_glyph=in_glyph))
    assert error.code == "decompression_bomb" and "draws itself" in error.message
    assert calls["PdfDocument.get_page"] == 0


def test_a_font_stream_bomb_is_refused_before_pdfium_decodes_it(calls: Counter[str]) -> None:
    bomb = zlib.compress(b"0" * (9 * 1024 * 1024), 9)  # a 9 MB ToUnicode CMap
    error = _refusal(font_stream_pdf([PROSE], bomb))
    assert error.code == "decompression_bomb" and error.status_code == 413
    assert calls["PdfDocument.get_page"] == 0


def test_streams_are_bounded_for_the_whole_file_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(structure, "DOCUMENT_DECODED_BYTES", 64 * 1024)
    padding = b"\n% padding" * 2_000  # 20 KB of content a page
    pages = [text_content([f"Page {n}."]) + padding for n in range(1, 5)]
    error = _refusal(build_pdf(pages, compress=True))
    assert error.code == "decompression_bomb" and "64 KiB in all" in error.message
    assert _extract(build_pdf(pages[:3], compress=True)).text.count("\f") == 2


def test_every_pdfium_call_holds_the_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    read = pdfium.PdfTextPage.get_text_range

    def get_text_range(self, *args, **kwargs):
        assert PDFIUM_LOCK.locked()
        return read(self, *args, **kwargs)

    monkeypatch.setattr(pdfium.PdfTextPage, "get_text_range", get_text_range)
    assert _extract(text_pdf([["Page one."], ["Page two."]])).text == "Page one.\fPage two."
    assert not PDFIUM_LOCK.locked()


@pytest.mark.parametrize(
    ("pdf", "code"),
    [
        (text_pdf([[PROSE], [PROSE]]), None),
        (text_pdf([["/g18/g152/g33/g47 /g3/g44/g55/g81/g3 /g68/g81/g71"] * 20]), "low_confidence"),
        (build_pdf([b"q 200 0 0 200 72 500 cm /Im1 Do Q"], with_image=True), "image_only"),
    ],
    ids=["accepted", "low-confidence", "image-only"],
)
def test_every_document_page_and_text_page_is_closed(
    calls: Counter[str], pdf: bytes, code: str | None
) -> None:
    if code:
        assert _refusal(pdf).code == code
    else:
        _extract(pdf)
    assert calls["PdfDocument.close"] == calls["PdfDocument.__init__"] == 1
    assert calls["PdfPage.close"] == calls["PdfDocument.get_page"] > 0
    assert calls["PdfTextPage.close"] == calls["PdfPage.get_textpage"] > 0


def test_extractions_in_threads_give_what_one_thread_gives() -> None:
    files = [
        "pdfjs-openoffice-pdkids.pdf",
        "pypdf-word2010-geobase.pdf",
        "sf-latex-multicolumn.pdf",
    ]
    data = [(CORPUS / name).read_bytes() for name in files]
    alone = [_extract(d, remaining=None).text for d in data]
    barrier = threading.Barrier(4)

    def run(i: int) -> str:
        barrier.wait(timeout=60)
        return _extract(data[i % 3], remaining=None).text

    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(run, range(8)))
    assert together == [alone[i % 3] for i in range(8)]
