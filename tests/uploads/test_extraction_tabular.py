"""CSV and TSV extraction: header names, row and column anchors, inert formulas, exact limits."""

from __future__ import annotations

import pytest

from uploads import selection
from uploads.anchors import Anchor
from uploads.extraction import extract_upload
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.segments import segments_of

CSV = (
    b"Criterion,Status,Evidence\r\n"
    b'Data boundary,open,"No data-flow diagram, yet"\r\n'
    b"\r\n"
    b"Cost,=SUM(A1:A9),@cmd|' /C calc'!A0\r\n"
)


def _extract(data: bytes, name: str = "matrix.csv", remaining: int | None = LIMITS.session_chars):
    return extract_upload(data, filename=name, session_remaining=remaining)


def _refusal(data: bytes, name: str = "matrix.csv", **kwargs) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        _extract(data, name, **kwargs)
    return info.value


def test_rows_keep_file_row_numbers_and_header_names() -> None:
    extracted = _extract(CSV)
    assert extracted.file_type == "csv" and extracted.method == "local_csv_parse"
    assert extracted.anchors_available == ("row_number", "column_name")
    segments = segments_of("csv", extracted.text, extracted.meta)
    assert [(s.anchor, s.text) for s in segments] == [
        (
            Anchor(row_number=2),
            "Row 2: Criterion: Data boundary; Status: open; Evidence: No data-flow diagram, yet",
        ),
        (
            Anchor(row_number=4),
            "Row 4: Criterion: Cost; Status: =SUM(A1:A9); Evidence: @cmd|' /C calc'!A0",
        ),
    ]


def test_formulas_are_kept_as_inert_text() -> None:
    text = _extract(CSV).text
    assert "=SUM(A1:A9)" in text and "@cmd|' /C calc'!A0" in text


def test_tsv_uses_tabs_and_blank_headers_get_names() -> None:
    extracted = _extract(b"Owner\t\tOwner\nproduct owner\tgate 2\trisk owner\n", "owners.tsv")
    assert extracted.file_type == "tsv"
    assert segments_of("tsv", extracted.text, {})[0].text == (
        "Row 2: Owner: product owner; column 2: gate 2; Owner (2): risk owner"
    )


def test_the_selected_row_names_the_matching_column() -> None:
    from uploads.types import ExtractionRecord, SessionSource

    extracted = _extract(CSV)
    record = ExtractionRecord(
        "uploaded_session_source",
        "session-file-001",
        "matrix.csv",
        "csv",
        len(CSV),
        len(extracted.text),
        0,
        extracted.method,
        "high",
        "accepted",
        extracted.anchors_available,
        "label",
        "session_only",
    )
    source = SessionSource(record=record, text=extracted.text)
    picked = selection.select(
        sources=[source],
        question="where is the data-flow diagram?",
        package_text="",
        package_tokens=0,
    )
    assert picked.excerpts[0].anchor == Anchor(row_number=2, column_name="Evidence")


def test_ragged_rows_make_the_extraction_partial() -> None:
    assert _extract(b"a,b\n1,2,3\n").confidence == "partial"


def test_long_cells_are_capped_and_marked_truncated() -> None:
    extracted = _extract(b"note\n" + b"x" * 2_500 + b"\n")
    assert extracted.status == "truncated"
    assert len(extracted.text.split("\n")[1]) == LIMITS.cell_chars


def test_row_limit_is_exact() -> None:
    rows = b"".join(b"%d\n" % n for n in range(5_000))
    assert len(_extract(b"n\n" + rows).text.split("\n")) == 5_001
    error = _refusal(b"n\n" + rows + b"5000\n")
    assert error.code == "too_large" and "5,000 rows" in error.message


def test_column_limit_is_exact() -> None:
    header = ",".join(f"c{n}" for n in range(100)).encode()
    assert _extract(header + b"\n" + b"1," * 99 + b"1\n").text
    error = _refusal(header + b",c100\n1\n")
    assert (
        error.code == "too_large"
        and "101 columns" in error.message
        and "100 columns" in error.message
    )


def test_extracted_character_limit_is_exact() -> None:
    # Rows of up to 1,500 characters, the last one sized to land exactly on ``total``.
    def table(total: int) -> bytes:
        lines = ["h"]
        size = 1
        while size < total:
            cell = "y" * min(1_500, total - size - 1)
            lines.append(cell)
            size += len(cell) + 1
        return "\n".join(lines).encode()

    assert len(_extract(table(250_000), remaining=None).text) == 250_000
    error = _refusal(table(250_001), remaining=None)
    assert error.code == "too_large" and "250,000 extracted characters" in error.message


def test_size_limit_is_exact() -> None:
    def padded(size: int) -> bytes:
        # Rows of "v" followed by spaces: every byte counts towards the raw size, while the
        # extracted text stays small because cell whitespace is trimmed.
        rows = [b"h\n"]
        total = 2
        while total < size:
            row = b"v" + b" " * max(0, min(998, size - total - 2)) + b"\n"
            rows.append(row)
            total += len(row)
        return b"".join(rows)

    at_limit = padded(LIMITS.tabular_bytes)
    assert len(at_limit) == LIMITS.tabular_bytes
    assert set(_extract(at_limit).text.split("\n")[1:]) == {"v"}
    error = _refusal(padded(LIMITS.tabular_bytes + 1))
    assert error.code == "too_large" and "2 MiB (2,097,152 bytes)" in error.message


@pytest.mark.parametrize("data", [b'a,b\n"x"y,1\n', b'a,b\n"never closed,1\n'])
def test_malformed_csv_is_refused(data: bytes) -> None:
    error = _refusal(data)
    assert error.code == "malformed" and error.status_code == 400


def test_a_cell_over_the_parser_limit_is_too_large() -> None:
    error = _refusal(b'a\n"' + b"x" * 140_000 + b'"\n')
    assert error.code == "too_large" and "131,072 characters" in error.message


def test_header_only_table_is_empty() -> None:
    assert _refusal(b"a,b,c\n").code == "empty"
