"""Every sentence of an upload a review reads: headings and short fragments left out, table cells read one by one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.text import stems
from uploads import page_sentences
from uploads.types import SessionSource

MIN_WORDS = 6
OPENING_CHARS = 40
_SENTENCE = re.compile(r"(?<=[.!?])[\"”')\]]?\s+(?=[A-Z0-9\"“(])")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# Document metadata ("**Owner:** ...", "Status: draft"), not a statement about the capability.
_FIELD_LINE = re.compile(r"^(?:\*\*[^*]{1,40}:\*\*|[A-Z][A-Za-z ]{1,30}:\s+(?:\S+\s+){0,2}\S*$)")


def _cells(row: str) -> list[str]:
    """A table row's cells that read as statements (a row as a whole is never one sentence)."""
    cells = (c.strip() for c in re.split(r"\t| ?\| ?", row.strip().strip("|")))
    return [c for c in cells if len(c.split()) >= MIN_WORDS]


@dataclass(frozen=True)
class Sentence:
    """One uploaded sentence: verbatim text, where it is, and its stems."""

    text: str
    source_index: int
    position: int
    anchor: str
    stems: tuple[str, ...]
    #: The segment a sentence cut by a PDF page break goes on into (``uploads/page_sentences.py``).
    continued: int | None = None
    #: The heading of the draft section the sentence sits under ("" before the first heading).
    heading: str = ""
    #: The opening of the paragraph, list item or cell the sentence sits in (where a role prefix
    #: such as "SYSTEM:" that governs every sentence after it is read: ``not_evidence.py``).
    opening: str = ""


def _groups(
    lines: Sequence[str], headings: set[str], heading: str
) -> tuple[list[tuple[str, str]], str]:
    """A segment's lines as (heading, text) groups: a paragraph, a list item or a table cell.

    Returns the groups and the heading in force at the segment's end.
    """
    groups: list[tuple[str, str]] = []
    current: list[str] = []

    def close() -> None:
        if current:
            groups.append((heading, " ".join(current)))
            current.clear()

    for line in lines:
        stripped = line.strip()
        if _MD_HEADING.match(line) or (stripped and stripped in headings):
            close()
            heading = stripped.lstrip("#").strip()
            continue
        is_row = stripped.startswith("|") or "\t" in line or " | " in line
        if not stripped or is_row or _FIELD_LINE.match(stripped):
            close()
            if is_row:
                groups += [(heading, cell) for cell in _cells(stripped)]
            continue
        is_item = bool(_ITEM.match(line))
        if is_item:
            close()
        current.append(_ITEM.sub("", stripped) if is_item else stripped)
    close()
    return groups, heading


def sentences(sources: Sequence[SessionSource]) -> list[Sentence]:
    """Every sentence of every source: headings and short fragments left out, a table row read
    cell by cell."""
    out: list[Sentence] = []
    for source_index, source in enumerate(sources):
        if source.record.file_type in ("csv", "tsv", "json"):
            continue
        headings = set(source.meta.get("headings", ()))
        joins = page_sentences.page_joins(source.record.file_type, source.text, source.segments)
        heading = ""
        for position, segment in enumerate(source.segments):
            lines = page_sentences.lines_as_read(segment, position, joins)
            groups, heading = _groups(lines, headings, segment.anchor.section or heading)
            for heading_of, group in groups:
                for piece in _SENTENCE.split(group):
                    piece = piece.strip()
                    if len(piece.split()) < MIN_WORDS:
                        continue
                    out.append(
                        Sentence(
                            piece,
                            source_index,
                            position,
                            segment.anchor.label,
                            tuple(stems(piece)),
                            page_sentences.continues_in(piece, position, joins),
                            heading_of,
                            group[:OPENING_CHARS],
                        )
                    )
    return out


def quotable(text: str) -> list[str]:
    """The sentences of one uploaded excerpt as a quote gives them: a paragraph's lines joined
    with spaces, a list item or table cell on its own, each the text's own words (no full stop
    added, so a sentence a PDF line break cut is never quoted as a fragment); pieces under
    ``MIN_WORDS`` words left out."""
    groups, _ = _groups(text.split("\n"), set(), "")
    pieces = (piece.strip() for _, group in groups for piece in _SENTENCE.split(group))
    return [piece for piece in pieces if len(piece.split()) >= MIN_WORDS]
