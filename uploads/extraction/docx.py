"""Word (.docx) extraction: the checked package walked in body order, one line per block.

The zip is checked before python-docx opens it (``docx_package``). Then headings, paragraphs,
text-box paragraphs, list items and table rows are extracted in body order, one per line;
content controls are read as the text they show (``docx_blocks``); headings and list items are
recognised by ``docx_headings``. Past what the session's character budget has left, the document
is cut after its last whole section that fits.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
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


@dataclass
class _BodyLines:
    """The body's lines as they are read in order: where sections start and how many fit the budget."""

    budget: CharBudget
    limits: Limits
    lines: list[str] = field(default_factory=list)
    headings: list[int] = field(default_factory=list)  # the line each heading starts
    opening: bool = False  # text before the first heading, an untitled first section
    fit: int = 0  # how many leading lines fit in what the session has left
    boxes: int = 0  # text-box paragraphs read

    def add(self, line: str) -> None:
        if self.budget.take(len(line) + (1 if self.lines else 0)):
            self.fit += 1
        self.lines.append(line)

    def add_body(self, line: str) -> None:
        """A line that is not a heading: before any heading, it opens an untitled section."""
        self.opening = self.opening or not self.headings
        self.add(line)

    def add_paragraph(self, block: Any) -> None:
        """A paragraph (heading, list item or text), then the text boxes anchored in it."""
        text = clean_inline(block.text)
        if text:
            if is_heading(block, text):
                self.headings.append(len(self.lines))
                _check_sections(len(self.headings) + int(self.opening), self.limits)
                self.add(text)
            else:
                self.add_body(("- " + text) if is_list_item(block) else text)
        for box_text in text_box_paragraphs(block._p):
            self.boxes += 1
            self.add_body(box_text)


def _walk(document: Any, budget: CharBudget, limits: Limits) -> ExtractedText:
    """One pass over the body in order: paragraphs, their text boxes and table rows."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    deadline = Deadline(limits.extraction_seconds)
    read = _BodyLines(budget, limits)
    for block in document.iter_inner_content():
        check_deadline(deadline, "Word document")
        if isinstance(block, Paragraph):
            read.add_paragraph(block)
        elif isinstance(block, Table):
            for row in table_rows(block):
                read.add_body(row)
    _check_sections(len(read.headings) + int(read.opening), limits)
    if not read.lines:
        raise refuse(Reason.EMPTY, "The Word document contains no text to extract.")
    return _extracted(document, read)


def _extracted(document: Any, read: _BodyLines) -> ExtractedText:
    """The record: the lines that fit (cut at a section), partial when some text was not read."""
    body = document.element.body
    partial = bool(
        body.xpath(_PARTIAL_XPATH)
        or len(body.xpath(".//w:txbxContent")) > boxes_seen(body, read.boxes)
    )
    kept, kept_text = len(read.lines), ""
    if read.fit < len(read.lines):
        kept, kept_text = _cut(read.fit, len(read.lines), read.headings, read.opening)
    if kept == 0:
        raise read.budget.nothing_fits()
    return ExtractedText(
        file_type="docx",
        method=METHOD,
        text="\n".join(read.lines[:kept]),
        anchors_available=("section", "paragraph"),
        confidence=CONFIDENCE_PARTIAL if partial else CONFIDENCE_HIGH,
        kept=kept_text,
        meta={"headings": [h for h in read.headings if h < kept]},
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
