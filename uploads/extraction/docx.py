"""Word (.docx) extraction with python-docx, after the package itself has been checked.

Before python-docx sees a byte, the zip is inspected: declared part sizes and compression ratios
(python-docx has no zip-bomb guard), DTD or entity declarations in any XML part, macro-enabled
content (``vbaProject.bin``, macroEnabled content types), encrypted entries and Strict Open XML
are refused. Then headings, paragraphs, text-box paragraphs, list items and table rows (nested
tables' text in their cell) are extracted in body order, one per line; content controls (``w:sdt``:
form fields, document properties shown in the text) are read as the text they show, except
those still showing their placeholder prompt. A heading is a paragraph with a heading style, an outline
level (on the paragraph or its style), or a short, numbered, bold paragraph that does not end like
a sentence. Past what the session's character budget has left, the document is cut after its
last whole section that fits.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree  # parses only [Content_Types].xml, after the DTD check

from core.deadline import Deadline
from core.sizes import MiB, human_bytes
from uploads.extraction.common import CharBudget, check_deadline, clean_inline, kept_range
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, SourceRefused, refuse
from uploads.types import CONFIDENCE_HIGH, CONFIDENCE_PARTIAL, ExtractedText

if TYPE_CHECKING:
    from docx.table import Table
    from docx.text.paragraph import Paragraph

METHOD = "local_docx_extract"
MAX_PARTS = 1_000
MAX_PART_BYTES = 20 * MiB
MAX_TOTAL_BYTES = 40 * MiB
MAX_RATIO = 100
RATIO_CHECKED_ABOVE = 1 * MiB
WORD_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_DECLARATIONS = (b"<!doctype", b"<!entity")
# Strict Open XML names its main document with ISO namespaces, which python-docx does not read.
_STRICT_MAIN = b"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
# Text boxes in body paragraphs are read (see _text_box_paragraphs); a drawing or VML picture
# that is not a text box, and text boxes elsewhere, make the extraction partial.
_PARTIAL_XPATH = (
    ".//w:ins | .//w:del | .//w:moveFrom | .//w:moveTo"
    " | .//w:drawing[not(.//w:txbxContent)] | .//w:pict[not(.//w:txbxContent)] | .//w:object"
    " | .//w:fldSimple | .//w:altChunk"
    " | .//w:footnoteReference | .//w:endnoteReference | .//w:commentReference | .//w:customXml"
)
_CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
}


class PackageKind:
    DOCX = "docx"
    STRICT_DOCX = "strict_docx"
    OTHER_OOXML = "other_ooxml"
    ARCHIVE = "archive"


def inspect_package(data: bytes) -> str:
    """Check a zip before anything parses it; return what it is (docx, other OOXML, plain archive).

    Raises the refusal for a malformed zip, encrypted entries, a decompression bomb, macros or
    DTD/entity declarations. Every part is read here with a byte cap, so sizes are counted, not
    only trusted from the zip directory.
    """
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise refuse(
            Reason.MALFORMED, "The file is a damaged zip package and could not be read."
        ) from None
    with zf:
        names = {info.filename for info in infos}
        if "[Content_Types].xml" not in names:
            return PackageKind.ARCHIVE
        _check_directory(infos)
        content_types = _read_part(zf, zf.getinfo("[Content_Types].xml"))
        _check_macros(names, content_types)
        strict = False
        for info in infos:
            if info.filename.lower().endswith((".xml", ".rels")):
                part = _read_part(zf, info)
                _check_declarations(info.filename, part)
                strict = strict or (info.filename == "_rels/.rels" and _STRICT_MAIN in part)
        overrides = _content_types(content_types)
    if WORD_MAIN in overrides.values():
        return PackageKind.STRICT_DOCX if strict else PackageKind.DOCX
    return PackageKind.OTHER_OOXML


def _check_directory(infos: list[zipfile.ZipInfo]) -> None:
    if len(infos) > MAX_PARTS:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            f"The package has {len(infos):,} parts; at most {MAX_PARTS:,} are accepted.",
        )
    if any(info.flag_bits & 0x1 for info in infos):
        raise refuse(
            Reason.ENCRYPTED, "The package has encrypted parts; encrypted files are not accepted."
        )
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > MAX_PART_BYTES:
            raise refuse(
                Reason.DECOMPRESSION_BOMB,
                f"A part of the package would expand to {info.file_size:,} bytes; each part is "
                f"limited to {human_bytes(MAX_PART_BYTES)} uncompressed.",
            )
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_CHECKED_ABOVE and ratio > MAX_RATIO:
            raise refuse(
                Reason.DECOMPRESSION_BOMB,
                f"A part of the package is compressed {ratio:,.0f} to 1; more than {MAX_RATIO} to 1 "
                "is treated as a decompression bomb.",
            )
    if total > MAX_TOTAL_BYTES:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            f"The package would expand to {total:,} bytes; at most {human_bytes(MAX_TOTAL_BYTES)} "
            "uncompressed are accepted.",
        )


def _read_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        with zf.open(info) as handle:
            body = handle.read(MAX_PART_BYTES + 1)
    except (
        zipfile.BadZipFile,
        zlib.error,
        ValueError,
        OSError,
        EOFError,
        NotImplementedError,
        RuntimeError,
    ):
        raise refuse(
            Reason.MALFORMED, "A part of the package is damaged and could not be read."
        ) from None
    if len(body) > MAX_PART_BYTES:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            f"A part of the package expands beyond {human_bytes(MAX_PART_BYTES)}.",
        )
    return body


def _check_macros(names: Iterable[str], content_types: bytes) -> None:
    lowered = content_types.lower()
    macro_part = any(
        n.lower().rsplit("/", 1)[-1] in ("vbaproject.bin", "vbadata.xml") for n in names
    )
    if macro_part or b"macroenabled" in lowered or b"vbaproject" in lowered:
        raise refuse(
            Reason.MACRO_ENABLED,
            "The document is macro-enabled (it carries a VBA project). Macro-enabled documents are "
            "not accepted, whatever their file name; save it as a plain .docx without macros.",
        )


def _check_declarations(name: str, body: bytes) -> None:
    views = [body.lower()]
    if body.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in body[:256]:
        for codec in ("utf-16-le", "utf-16-be"):
            views.append(body.decode(codec, errors="ignore").lower().encode("ascii", "ignore"))
    if any(d in view for view in views for d in _DECLARATIONS):
        raise refuse(
            Reason.UNSAFE_CONTENT,
            f"The package part {name!r} declares a DTD or XML entities, which Word documents never "
            "need; the file is refused rather than parsed.",
        )


def _content_types(body: bytes) -> dict[str, str]:
    try:
        root = ElementTree.fromstring(body)  # noqa: S314 - declarations were refused above
    except ElementTree.ParseError:
        raise refuse(Reason.MALFORMED, "The package's content-type list is malformed.") from None
    return {
        el.get("PartName", ""): el.get("ContentType", "") for el in root.iter(f"{_CT_NS}Override")
    }


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
        _unwrap_content_controls(document.element.body)
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
                if _is_heading(block, text):
                    headings.append(len(lines))
                    _check_sections(len(headings) + int(opening), limits)
                    line = text
                else:
                    opening = opening or not headings
                    line = ("- " + text) if _is_list_item(block) else text
                add(line)
            for box_text in _text_box_paragraphs(block._p):
                boxes += 1
                opening = opening or not headings
                add(box_text)
        elif isinstance(block, Table):
            for row in _table_rows(block):
                opening = opening or not headings
                add(row)
    _check_sections(len(headings) + int(opening), limits)
    if not lines:
        raise refuse(Reason.EMPTY, "The Word document contains no text to extract.")
    body = document.element.body
    if body.xpath(_PARTIAL_XPATH) or len(body.xpath(".//w:txbxContent")) > _boxes_seen(body, boxes):
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


_HEADING_STYLE = re.compile(r"^(?:heading\s*\d*|title)$", re.I)
_TYPED_NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,4}\.?|[A-Z]\.|[IVX]{1,5}\.)\s+\S")
_HEADING_CHARS = 100


def _is_heading(paragraph: Paragraph, text: str) -> bool:
    """A heading by its style, its outline level (on the paragraph or its style) or its look.

    The look: a short, numbered paragraph ("2.1 Scope", or Word numbering) set in bold that
    does not end like a sentence.
    """
    style = _style_name(paragraph)
    if style and _HEADING_STYLE.match(style):
        return True
    if _outline_level(paragraph) is not None:
        return True
    if len(text) > _HEADING_CHARS or text[-1] in ".;:,!?":
        return False
    numbered = bool(_TYPED_NUMBER.match(text)) or _numbered(paragraph)
    runs = [run for run in paragraph.runs if run.text.strip()]
    return numbered and bool(runs) and all(_bold(run, paragraph) for run in runs)


def _outline_level(paragraph: Paragraph) -> int | None:
    """The paragraph's outline level 0-8 (Word's body text, level 9, is none), or None."""
    elements: list[Any] = [paragraph._p.pPr]
    try:
        style = paragraph.style
    except (KeyError, ValueError, AttributeError):
        style = None
    while style is not None and len(elements) < 10:
        elements.append(style.element.pPr)
        style = style.base_style
    for ppr in elements:
        if ppr is None:
            continue
        found = ppr.xpath("./w:outlineLvl/@w:val")
        if found:
            try:
                level = int(found[0])
            except ValueError:
                return None
            return level if 0 <= level <= 8 else None
    return None


def _numbered(paragraph: Paragraph) -> bool:
    ppr: Any = paragraph._p.pPr
    return ppr is not None and ppr.numPr is not None


def _bold(run: Any, paragraph: Paragraph) -> bool:
    if run.bold is not None:
        return bool(run.bold)
    try:
        style = paragraph.style
    except (KeyError, ValueError, AttributeError):
        return False
    return bool(style is not None and style.font is not None and style.font.bold)


def _text_box_paragraphs(p: Any) -> list[str]:
    """The text of the text boxes anchored in one body paragraph, one line per box paragraph.

    A text box is written twice, as a drawing (``mc:Choice``) and as VML for older readers
    (``mc:Fallback``); only the first is read.
    """
    out = []
    for box in _xpath(".//w:txbxContent[not(ancestor::mc:Fallback)]")(p):
        for para in _xpath("./w:p")(box):
            text = clean_inline("".join(_xpath(".//w:t/text()")(para)))
            if text:
                out.append(text)
    return out


@lru_cache(maxsize=16)
def _xpath(expression: str) -> Any:
    """A compiled XPath with the w: and mc: prefixes (python-docx's own knows no mc:)."""
    from lxml import etree

    return etree.XPath(expression, namespaces=_NS)


def _boxes_seen(body: Any, box_paragraphs: int) -> int:
    """How many w:txbxContent elements were read (those in body paragraphs, counting fallbacks)."""
    if not box_paragraphs:
        return 0
    return len(_xpath("./w:p//w:txbxContent")(body))


def _is_list_item(paragraph: Paragraph) -> bool:
    style = _style_name(paragraph) or ""
    ppr: Any = paragraph._p.pPr  # python-docx exposes numbering only on the element
    return "list" in style.lower() or (ppr is not None and ppr.numPr is not None)


def _style_name(paragraph: Paragraph) -> str | None:
    try:
        style = paragraph.style
    except (KeyError, ValueError, AttributeError):
        return None
    return style.name if style is not None else None


def _unwrap_content_controls(body: Any) -> None:
    """Put each content control's content in its place (innermost first), in the parsed copy only.

    A control still showing its placeholder prompt (``w:showingPlcHdr``) holds no author text
    and is dropped. Block, row, cell and run controls alike: what Word shows is what is read.
    """
    for sdt in reversed(_xpath(".//w:sdt")(body)):
        parent = sdt.getparent()
        if parent is None:
            continue
        position = parent.index(sdt)
        if not _xpath("./w:sdtPr/w:showingPlcHdr")(sdt):
            for content in _xpath("./w:sdtContent")(sdt):
                for offset, child in enumerate(list(content)):
                    parent.insert(position + offset, child)
        parent.remove(sdt)


def _cell_text(cell: Any, depth: int = 0) -> str:
    """A cell's paragraphs and, within it, its nested tables' rows, on one line."""
    from docx.table import Table

    parts: list[str] = []
    for block in cell.iter_inner_content():
        if isinstance(block, Table):
            if depth < 5:
                parts.extend(_table_rows(block, depth + 1))
        else:
            parts.append(block.text)
    return clean_inline(" ".join(parts))


def _table_rows(table: Table, depth: int = 0) -> list[str]:
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:
            if previous is not None and cell._tc is previous:  # merged-cell identity
                continue
            previous = cell._tc
            cells.append(_cell_text(cell, depth))
        if any(cells):
            rows.append(" | ".join(cells))
    return rows
