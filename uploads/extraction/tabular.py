"""CSV and TSV extraction with the standard csv module: header names kept, rows and columns capped.

Cells are text and stay text: formulas such as ``=SUM(A1:A9)`` are kept as the inert characters
they are and never evaluated.
"""

from __future__ import annotations

import csv
import io

from core.deadline import Deadline
from core.text import clip
from uploads.extraction.common import (
    CharBudget,
    Decoded,
    check_deadline,
    clean_inline,
    decode,
    quality_problem,
)
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, SourceRefused, refuse
from uploads.types import CONFIDENCE_HIGH, CONFIDENCE_PARTIAL, ExtractedText

METHOD = "local_csv_parse"


def extract_table(
    data: bytes, *, file_type: str, budget: CharBudget, limits: Limits = LIMITS
) -> ExtractedText:
    """Rows of a ``.csv`` (comma) or ``.tsv`` (tab) file; line 0 of the text is the header."""
    decoded = _readable_text(data)
    dialect = "excel-tab" if file_type == "tsv" else "excel"
    reader = csv.reader(io.StringIO(decoded.text, newline=""), dialect=dialect, strict=True)
    deadline = Deadline(limits.extraction_seconds)
    lines: list[str] = []
    width: int | None = None
    rows = kept_rows = 0
    ragged = truncated = False
    try:
        for number, record in enumerate(reader):
            if number % 500 == 0:
                check_deadline(deadline, "table")
            cells, clipped = _row_cells(record, number, limits)
            truncated = truncated or clipped
            if number == 0:
                cells = _header_names(cells)
                width = len(cells)
            elif any(cells):
                rows += 1
                if rows > limits.tabular_rows:
                    raise refuse(
                        Reason.TOO_LARGE,
                        f"The table has more than {limits.tabular_rows:,} rows; CSV, TSV and JSON "
                        f"files are limited to {limits.tabular_rows:,} rows.",
                    )
                ragged = ragged or len(cells) != width
            line = "\t".join(cells) if any(cells) else ""
            # Past what the session has left, rows are still read (the row, column and character
            # limits of the file apply to all of it) but no longer kept.
            if budget.take(len(line) + (1 if lines else 0)):
                lines.append(line)
                kept_rows = rows
    except csv.Error as exc:
        raise _parse_refusal(exc, file_type) from None
    if rows == 0:
        raise refuse(Reason.EMPTY, "The table has a header but no data rows.")
    if kept_rows == 0:
        raise budget.nothing_fits()
    while lines and not lines[-1]:
        lines.pop()
    return ExtractedText(
        file_type=file_type,
        method=METHOD,
        text="\n".join(lines),
        anchors_available=("row_number", "column_name"),
        confidence=CONFIDENCE_PARTIAL if (ragged or decoded.replaced) else CONFIDENCE_HIGH,
        truncated=truncated,
        kept=f"the header and {kept_rows:,} of {rows:,} data rows" if kept_rows < rows else "",
    )


def _readable_text(data: bytes) -> Decoded:
    """The decoded table text, refused when empty or too garbled to cite."""
    decoded = decode(data)
    if not decoded.text.strip():
        raise refuse(Reason.EMPTY, "The table contains no text to extract.")
    problem = quality_problem(decoded.text)
    if problem:
        raise refuse(
            Reason.LOW_CONFIDENCE, f"The table is too garbled to cite reliably: {problem}."
        )
    return decoded


def _row_cells(record: list[str], number: int, limits: Limits) -> tuple[list[str], bool]:
    """The row's cells, cleaned and each clipped to the cell limit; whether any was clipped."""
    if len(record) > limits.tabular_columns:
        raise refuse(
            Reason.TOO_LARGE,
            f"Row {number + 1} has {len(record):,} columns; CSV, TSV and JSON files are "
            f"limited to {limits.tabular_columns} columns.",
        )
    cells = []
    clipped = False
    for raw in record:
        cell = clean_inline(raw)
        if len(cell) > limits.cell_chars:
            cell, clipped = clip(cell, limits.cell_chars), True
        cells.append(cell)
    return cells, clipped


def _parse_refusal(exc: csv.Error, file_type: str) -> SourceRefused:
    """The refusal for a parser error: a cell over the parser's limit, or a malformed file."""
    if "field larger than field limit" in str(exc):
        return refuse(
            Reason.TOO_LARGE,
            f"A cell is longer than {csv.field_size_limit():,} characters, the parser's limit.",
        )
    return refuse(Reason.MALFORMED, f"The {file_type.upper()} file is malformed: {exc}.")


def _header_names(cells: list[str]) -> list[str]:
    """Header cells with blanks named ``column N`` and duplicates numbered."""
    seen: dict[str, int] = {}
    out = []
    for index, cell in enumerate(cells, 1):
        name = cell or f"column {index}"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out
