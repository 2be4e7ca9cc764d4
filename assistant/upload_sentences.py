"""Every sentence of an upload a review reads: headings, table rows and short fragments left out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.text import stems
from uploads import page_sentences
from uploads.types import SessionSource

MIN_WORDS = 6
_SENTENCE = re.compile(r"(?<=[.!?])[\"”')\]]?\s+(?=[A-Z0-9\"“(])")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# Document metadata ("**Owner:** ...", "Status: draft"), not a statement about the capability.
_FIELD_LINE = re.compile(r"^(?:\*\*[^*]{1,40}:\*\*|[A-Z][A-Za-z ]{1,30}:\s+(?:\S+\s+){0,2}\S*$)")


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


def sentences(sources: Sequence[SessionSource]) -> list[Sentence]:
    """Every sentence of every source, headings, table rows and short fragments left out."""
    out: list[Sentence] = []
    for source_index, source in enumerate(sources):
        headings = set(source.meta.get("headings", ()))
        joins = page_sentences.page_joins(source.record.file_type, source.text, source.segments)
        for position, segment in enumerate(source.segments):
            if source.record.file_type in ("csv", "tsv", "json"):
                continue
            groups: list[str] = []
            current: list[str] = []
            for line in page_sentences.lines_as_read(segment, position, joins):
                stripped = line.strip()
                is_item = bool(_ITEM.match(line))
                if (
                    not stripped
                    or _MD_HEADING.match(line)
                    or stripped.startswith("|")
                    or "\t" in line
                    or " | " in line
                    or stripped in headings
                    or _FIELD_LINE.match(stripped)
                ):
                    if current:
                        groups.append(" ".join(current))
                    current = []
                    continue
                if is_item and current:
                    groups.append(" ".join(current))
                    current = []
                current.append(_ITEM.sub("", stripped) if is_item else stripped)
            if current:
                groups.append(" ".join(current))
            for group in groups:
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
                        )
                    )
    return out
