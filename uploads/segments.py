"""Citable segments rebuilt from a session source's stored text: the text is kept once, anchors derived.

Stored text layouts, one per file type:
- txt, md, paste: the original lines; line numbers are line positions.
- pdf: pages joined by a form feed; the page number is the count of form feeds before a line + 1.
- docx: one block (paragraph, list item or table row) per line; ``meta["headings"]`` lists the
  line indices that are headings, so a line's section is the nearest heading above it.
- csv, tsv: line 0 is the header, each later line one record, cells separated by tabs; the
  row number is the record's position in the file counting the header as row 1.
- json: one ``pointer<TAB>value`` line per leaf value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from uploads.anchors import Anchor, Segment

SEGMENT_CHARS = 800
OPENING_SECTION = "Opening text (before the first heading)"
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")


def segments_of(file_type: str, text: str, meta: dict[str, Any]) -> tuple[Segment, ...]:
    """Every citable segment of one source, in document order."""
    if file_type in ("txt", "md", "paste"):
        return tuple(_line_blocks(text.split("\n"), first_line=1, page=None))
    if file_type == "pdf":
        out: list[Segment] = []
        for number, page in enumerate(text.split("\f"), 1):
            out.extend(_line_blocks(page.split("\n"), first_line=1, page=number))
        return tuple(out)
    if file_type == "docx":
        return tuple(_docx_blocks(text.split("\n"), set(meta.get("headings", ()))))
    if file_type in ("csv", "tsv"):
        return tuple(_table_rows(text.split("\n")))
    if file_type == "json":
        return tuple(_json_leaves(text.split("\n")))
    raise ValueError(f"unknown session source type {file_type!r}")


_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s")


def _pieces(text: str) -> Iterator[str]:
    """A long block cut into pieces of about SEGMENT_CHARS, each a verbatim part of the block.

    Cuts fall after the last sentence end that leaves at least half a segment, else at the last
    space, else at SEGMENT_CHARS; a block up to twice SEGMENT_CHARS stays whole.
    """
    start, end = 0, len(text)
    while end - start > SEGMENT_CHARS * 2:
        limit = start + SEGMENT_CHARS
        cut = -1
        for match in _SENTENCE_END.finditer(text, start + SEGMENT_CHARS // 2, limit + 1):
            cut = match.end()
        if cut < 0:
            space = text.rfind(" ", start, limit)
            cut = space if space > start + SEGMENT_CHARS // 2 else limit
        piece = text[start:cut].strip()
        if piece:
            yield piece
        start = cut
    if text[start:].strip():
        yield text[start:].strip()


def _line_blocks(lines: list[str], *, first_line: int, page: int | None) -> Iterator[Segment]:
    start: int | None = None
    block: list[str] = []
    size = 0  # characters in ``block`` with one newline each, kept as lines are added

    def flush(end: int) -> Iterator[Segment]:
        if start is None or not block:
            return
        if page is not None:
            anchor = Anchor(page=page)
        else:
            anchor = Anchor(line_range=f"{start}" if start == end else f"{start}-{end}")
        for piece in _pieces("\n".join(block)):
            yield Segment(text=piece, anchor=anchor)

    for offset, line in enumerate(lines):
        number = first_line + offset
        if not line.strip():
            yield from flush(number - 1)
            start, block, size = None, [], 0
            continue
        if block and (_MD_HEADING.match(line) or size + len(line) > SEGMENT_CHARS):
            yield from flush(number - 1)
            start, block, size = None, [], 0
        if start is None:
            start = number
        block.append(line)
        size += len(line) + 1
    yield from flush(first_line + len(lines) - 1)


def _docx_blocks(lines: list[str], headings: set[int]) -> Iterator[Segment]:
    section = OPENING_SECTION
    paragraph = 0
    for index, line in enumerate(lines):
        if index in headings:
            section, paragraph = line.strip() or section, 0
            continue
        if not line.strip():
            continue
        paragraph += 1
        anchor = Anchor(section=section, paragraph=paragraph)
        for piece in _pieces(line):
            yield Segment(text=piece, anchor=anchor)


def table_header(text: str) -> list[str]:
    """The header cells of a stored csv/tsv source."""
    return text.split("\n", 1)[0].split("\t")


def row_text(header: list[str], cells: list[str], row_number: int) -> str:
    """One record as ``Row N: header: value; ...``, skipping empty cells."""
    pairs = [
        f"{header[i] if i < len(header) else f'column {i + 1}'}: {cell}"
        for i, cell in enumerate(cells)
        if cell.strip()
    ]
    return f"Row {row_number}: " + "; ".join(pairs)


def _table_rows(lines: list[str]) -> Iterator[Segment]:
    header = lines[0].split("\t") if lines else []
    for index, line in enumerate(lines[1:], 1):
        cells = line.split("\t")
        if not any(c.strip() for c in cells):
            continue
        row_number = index + 1
        yield Segment(
            text=row_text(header, cells, row_number), anchor=Anchor(row_number=row_number)
        )


def _json_leaves(lines: list[str]) -> Iterator[Segment]:
    for line in lines:
        if not line:
            continue
        pointer, _, value = line.partition("\t")
        yield Segment(text=f"{pointer or '/'} = {value}", anchor=Anchor(json_path=pointer or ""))
