"""Upload and paste limits, exactly as the session-source design's table states them."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from core.sizes import MiB, human_bytes


@dataclass(frozen=True)
class Limits:
    """Every size limit for session sources; one MiB is 1,048,576 bytes."""

    paste_chars: int = 25_000
    text_bytes: int = 1 * MiB
    document_bytes: int = 5 * MiB
    document_pages_or_sections: int = 75
    tabular_bytes: int = 2 * MiB
    tabular_rows: int = 5_000
    tabular_columns: int = 100
    tabular_chars: int = 250_000
    session_files: int = 5
    session_pastes: int = 1
    session_raw_bytes: int = 20 * MiB
    session_chars: int = 120_000
    # Safety bounds the design leaves to the implementation.
    cell_chars: int = 2_000
    json_depth: int = 32
    title_chars: int = 200
    extraction_seconds: float = 20.0

    def to_dict(self) -> dict[str, int | float]:
        return asdict(self)

    @property
    def largest_file_bytes(self) -> int:
        return max(self.text_bytes, self.document_bytes, self.tabular_bytes)


LIMITS = Limits()


def limit_lines(limits: Limits = LIMITS) -> list[str]:
    """The limits as short sentences, shown to users before they submit anything."""
    return [
        f"Pasted text: up to {limits.paste_chars:,} characters.",
        f".txt and .md files: up to {human_bytes(limits.text_bytes)}.",
        f".pdf and .docx files: up to {human_bytes(limits.document_bytes)} and "
        f"{limits.document_pages_or_sections} pages or sections.",
        f".csv, .tsv and .json files: up to {human_bytes(limits.tabular_bytes)}, "
        f"{limits.tabular_rows:,} rows, {limits.tabular_columns} columns and "
        f"{limits.tabular_chars:,} extracted characters.",
        f"Per session: {limits.session_files} files plus {limits.session_pastes} pasted text, "
        f"{human_bytes(limits.session_raw_bytes)} in total and "
        f"{limits.session_chars:,} extracted characters.",
    ]
