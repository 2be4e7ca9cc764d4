"""Citable units of a package row: sentences, list items with their lead-in, table rows with their header.

A row's text keeps the structure of its Markdown (``assistant/package/artifacts.py``): a bullet item is a
line starting "- ", an ordered item "N. ", a table row "| a | b |" with the header row first.
Units are what an extractive answer quotes: a sentence, one list item (its bold lead-in
included), a whole list with the line that introduces it, one table row read with its header,
or a whole table. Every unit's text is taken from the row text, never reworded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from assistant.package.sentences import split_sentences

SENTENCE, ITEM, LIST, ROW, TABLE = "sentence", "item", "list", "row", "table"
_ITEM = re.compile(r"^(?:- |\d{1,3}\. )(?P<text>.+)$")
_TABLE_LINE = re.compile(r"^\|(?P<cells>.*)\|$")
_REFERENCE_LINES = ("See:", "Also called:")


@dataclass(frozen=True)
class Unit:
    """One quotable piece of a row. ``parts`` are the lines it renders as (items or rows)."""

    kind: str
    text: str
    block: int
    position: int
    intro: str = ""
    parts: tuple[str, ...] = ()

    @property
    def sentences(self) -> tuple[str, ...]:
        """The pieces a "never the same sentence twice" check compares."""
        if self.kind in (LIST, TABLE):
            return ((self.intro,) if self.intro else ()) + self.parts
        return (self.text,)


def clean_end(text: str) -> str:
    """A quoted piece ends in a full stop, never ";." or a dangling ":"."""
    text = text.strip().rstrip(";,:").rstrip()
    if text and text[-1] not in ".!?\"'”)":
        text += "."
    return text


def _row_text(header: list[str], cells: list[str]) -> str:
    """A table row read with its header: first cell as the label, the others as "Header: cell"."""
    label = cells[0] if cells else ""
    rest = [
        f"{header[i] if i < len(header) else ''}: {cell}".strip(": ")
        for i, cell in enumerate(cells[1:], 1)
        if cell
    ]
    if not rest:
        return clean_end(label)
    return clean_end(f"{label} — " + "; ".join(rest))


@lru_cache(maxsize=4096)
def units(text: str) -> tuple[Unit, ...]:
    """Every unit of a row's text, in reading order (package text only: it is remembered)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    out: list[Unit] = []
    position = 0
    block = 0
    i = 0
    previous_paragraph: str | None = None
    while i < len(lines):
        line = lines[i]
        if line.startswith(_REFERENCE_LINES):
            i += 1
            continue
        if _ITEM.match(line):
            items: list[str] = []
            while i < len(lines) and (m := _ITEM.match(lines[i])):
                items.append(clean_end(m.group("text")))
                i += 1
            intro = (
                previous_paragraph
                if previous_paragraph and previous_paragraph.endswith(":")
                else ""
            )
            if intro and out and out[-1].text == intro:
                out.pop()  # the lead-in travels with its list
                position -= 1
            block += 1
            for item in items:
                out.append(Unit(ITEM, item, block, position, intro=intro))
                position += 1
            out.append(
                Unit(LIST, intro or items[0], block, position, intro=intro, parts=tuple(items))
            )
            position += 1
            previous_paragraph = None
            continue
        if _TABLE_LINE.match(line):
            rows: list[list[str]] = []
            while i < len(lines) and (m := _TABLE_LINE.match(lines[i])):
                rows.append([c.strip() for c in m.group("cells").split(" | ")])
                i += 1
            header, body = rows[0], rows[1:]
            intro = (
                previous_paragraph
                if previous_paragraph and previous_paragraph.endswith(":")
                else ""
            )
            block += 1
            rendered = tuple(_row_text(header, cells) for cells in body)
            for row in rendered:
                out.append(Unit(ROW, row, block, position, intro=" | ".join(header)))
                position += 1
            out.append(
                Unit(
                    TABLE, intro or " | ".join(header), block, position, intro=intro, parts=rendered
                )
            )
            position += 1
            previous_paragraph = None
            continue
        block += 1
        sentences = split_sentences(line)
        for sentence in sentences:
            out.append(Unit(SENTENCE, sentence, block, position))
            position += 1
        previous_paragraph = sentences[-1] if sentences else None
        i += 1
    return tuple(out)


def unit_text(unit: Unit) -> str:
    """A unit's words as one text: a list or table with its lead-in, else the unit itself."""
    if unit.kind in (LIST, TABLE):
        return " ".join(((unit.intro,) if unit.intro else ()) + unit.parts)
    return unit.text
