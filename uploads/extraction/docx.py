"""Word (.docx) extraction: the checked package walked in body order, one line per block.

The zip is checked before python-docx opens it (``docx_package``). Then headings, paragraphs,
text-box paragraphs, list items and table rows are extracted in body order, one per line;
content controls are read as the text they show (``docx_blocks``); headings and list items are
recognised by ``docx_headings``. Past what the session's character budget has left, the document
is cut after its last whole section that fits.
"""

from __future__ import annotations

import io
from typing import Any

from core.deadline import Deadline
from uploads.extraction.common import CharBudget, check_deadline, clean_inline, kept_range
from uploads.extraction.docx_blocks import (
    boxes_seen,
    table_rows,
    text_box_paragraphs,
    unwrap_content_controls,
)
from uploads.extraction.docx_headings import is_heading, is_list_item
from uploads.extraction.docx_package import PackageKind, inspect_package
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, SourceRefused, refuse
from uploads.types import CONFIDENCE_HIGH, CONFIDENCE_PARTIAL, ExtractedText

METHOD = "local_docx_extract"
# Text boxes in body paragraphs are read (docx_blocks.text_box_paragraphs); a drawing or VML picture
# that is not a text box, and text boxes elsewhere, make the extraction partial.
_PARTIAL_XPATH = (
    ".//w:ins | .//w:del | .//w:moveFrom | .//w:moveTo"
    " | .//w:drawing[not(.//w:txbxContent)] | .//w:pict[not(.//w:txbxContent)] | .//w:object"
    " | .//w:fldSimple | .//w:altChunk"
    " | .//w:footnoteReference | .//w:endnoteReference | .//w:commentReference | .//w:customXml"
)


def extract_docx(data: bytes, *, budget: CharBudget, limits: Limits = LIMITS) -> ExtractedText:
    """A checked DOCX to one line per block; ``meta["headings"]`` marks the heading lines."""
    kind = inspect_package(data)
    if kind == PackageKind.STRICT_DOCX:
        raise refuse(
            Reason.STRICT_OPEN_XML,
            "The document is saved as Strict Open XML, which cannot be read here. In Word, choose "
            'File > Save As and the type "Word Document (.docx)", then upload that copy.',
        )
    if kind != PackageKind.DOCX:
        raise refuse(
            Reason.UNSUPPORTED_TYPE,
            "The file is an Office package but not a Word document; only .docx Word documents are accepted.",
        )
    import docx  # python-docx, imported on the first Word upload: start-up does not need it

    try:
        document = docx.Document(io.BytesIO(data))
    except SourceRefused:
        raise
    except Exception:  # noqa: BLE001 - python-docx raises KeyError, ValueError, lxml and zip errors alike
        raise refuse(
            Reason.MALFORMED, "The Word document is malformed and could not be read."
        ) from None
    try:
        unwrap_content_controls(document.element.body)
        return _walk(document, budget, limits)
    except SourceRefused:
        raise
    except Exception:  # noqa: BLE001 - a damaged body or style part fails while walking, not while opening
        raise refuse(
            Reason.MALFORMED, "The Word document is malformed and could not be read."
        ) from None


def _walk(document: Any, budget: CharBudget, limits: Limits) -> ExtractedText:  # noqa: C901 - one pass in body order
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    deadline = Deadline(limits.extraction_seconds)
    lines: list[str] = []
    headings: list[int] = []
    partial = False
    opening = False
    fit = 0  # how many leading lines fit in what the session has left

    def add(line: str) -> None:
        nonlocal fit
        if budget.take(len(line) + (1 if lines else 0)):
            fit += 1
        lines.append(line)

    boxes = 0
    for block in document.iter_inner_content():
        check_deadline(deadline, "Word document")
        if isinstance(block, Paragraph):
            text = clean_inline(block.text)
            if text:
                if is_heading(block, text):
                    headings.append(len(lines))
                    _check_sections(len(headings) + int(opening), limits)
                    line = text
                else:
                    opening = opening or not headings
                    line = ("- " + text) if is_list_item(block) else text
                add(line)
            for box_text in text_box_paragraphs(block._p):
                boxes += 1
                opening = opening or not headings
                add(box_text)
        elif isinstance(block, Table):
            for row in table_rows(block):
                opening = opening or not headings
                add(row)
    _check_sections(len(headings) + int(opening), limits)
    if not lines:
        raise refuse(Reason.EMPTY, "The Word document contains no text to extract.")
    body = document.element.body
    if body.xpath(_PARTIAL_XPATH) or len(body.xpath(".//w:txbxContent")) > boxes_seen(body, boxes):
        partial = True
    kept, kept_text = len(lines), ""
    if fit < len(lines):
        kept, kept_text = _cut(fit, len(lines), headings, opening)
    if kept == 0:
        raise budget.nothing_fits()
    return ExtractedText(
        file_type="docx",
        method=METHOD,
        text="\n".join(lines[:kept]),
        anchors_available=("section", "paragraph"),
        confidence=CONFIDENCE_PARTIAL if partial else CONFIDENCE_HIGH,
        kept=kept_text,
        meta={"headings": [h for h in headings if h < kept]},
    )


def _cut(fit: int, total: int, headings: list[int], opening: bool) -> tuple[int, str]:
    """Where a document over the session's budget is cut: the last whole section that fits.

    Returns how many lines are kept and what the record says was kept. When not even the first
    section fits whole, its leading paragraphs (whole blocks) that fit are kept.
    """
    starts = ([0] if opening else []) + headings
    whole = [start for start in starts if 0 < start <= fit]
    if whole:
        kept = whole[-1]
        return kept, kept_range("sections", sum(1 for s in starts if s < kept), len(starts))
    return fit, f"the first {fit:,} of {total:,} paragraphs, list items and table rows"


def _check_sections(count: int, limits: Limits) -> None:
    if count > limits.document_pages_or_sections:
        raise refuse(
            Reason.TOO_LARGE,
            f"The Word document has more than {limits.document_pages_or_sections} sections "
            f"(headings); Word documents are limited to {limits.document_pages_or_sections} "
            "pages or sections.",
        )
