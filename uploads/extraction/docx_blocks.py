"""Word content python-docx does not read as plain paragraphs: text boxes, content controls, tables.

Text boxes anchored in body paragraphs are read once (not their VML fallback); content controls
(``w:sdt``: form fields, document properties shown in the text) are replaced by the text they
show, except those still showing their placeholder prompt; table rows are read with nested
tables' text in their cell and merged cells once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from uploads.extraction.common import clean_inline

if TYPE_CHECKING:
    from docx.table import Table

_NS = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
}


def text_box_paragraphs(p: Any) -> list[str]:
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


def boxes_seen(body: Any, box_paragraphs: int) -> int:
    """How many w:txbxContent elements were read (those in body paragraphs, counting fallbacks)."""
    if not box_paragraphs:
        return 0
    return len(_xpath("./w:p//w:txbxContent")(body))


def unwrap_content_controls(body: Any) -> None:
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
                parts.extend(table_rows(block, depth + 1))
        else:
            parts.append(block.text)
    return clean_inline(" ".join(parts))


def table_rows(table: Table, depth: int = 0) -> list[str]:
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
