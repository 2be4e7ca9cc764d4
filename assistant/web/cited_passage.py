"""The cited passage in the reader: every sentence of a cited section that the answer used, whole.

A citation's excerpt is clipped (it ends in "…" mid-sentence) and the answer may quote sentences
of the section that the excerpt left out. So the reader marks each sentence of the section that
the run used: a sentence the excerpt or the answer's text citing it holds, or one that holds a
sentence (or the clipped end) of them. A sentence is marked whole, from its first word to its
full stop, also where inline markup (bold, code, a link) runs through it: each stretch of text
between two tags gets its own ``<mark>``, so no tag is ever split or moved.

Only text the page already holds is wrapped, and the one element added is fixed markup: nothing
of the request or the run is written into the page.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, field
from typing import Any

from assistant.verify.answer_check import MARKER_RE

#: A sentence of fewer words ("Header.", "1.") reads with the sentence after it.
MIN_SENTENCE_WORDS = 4
#: A sentence of the used text must be this long to mark the section sentence that holds it.
MIN_USED_WORDS = 4
#: A section sentence must be this long to be marked for being held in the used text.
MIN_HELD_WORDS = 3

_TAG = re.compile(r"<[^>]*>")
_TAG_NAME = re.compile(r"</?([a-zA-Z0-9]+)")
_BLOCK = frozenset(
    "p li ul ol h1 h2 h3 h4 h5 h6 td th tr thead tbody table blockquote pre div hr br dl dt dd".split()
)
_HEADING = frozenset("h1 h2 h3 h4 h5 h6".split())
_CHAR = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);|.", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+")
_WORD = re.compile(r"\w+")


def used_text(body: dict[str, Any], citation_id: str) -> str:
    """What the run took from citation ``citation_id``: its excerpt and each answer paragraph
    that cites it (markers removed), one per line."""
    parts = [
        str(c.get("excerpt", "")).removesuffix("…")
        for c in body.get("citations", [])
        if c.get("id") == citation_id
    ]
    for lane in body.get("lanes", []):
        for paragraph in re.split(r"\n", str(lane.get("text", ""))):
            cited = {
                cid.strip().upper()
                for marker in MARKER_RE.finditer(paragraph)
                for cid in re.split(r"[,;]", marker.group(1))
            }
            if citation_id in cited:
                parts.append(MARKER_RE.sub(" ", paragraph))
    return "\n".join(p.strip() for p in parts if p.strip())


def _words(text: str) -> str:
    """The text's words, lower-cased, space-joined and space-wrapped (for whole-word matching)."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def _spans(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` as (start, end) offsets, a short one joined to the next."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end in [m.start() for m in _SENTENCE_END.finditer(text)] + [len(text)]:
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            spans.append((start + lead, start + len(piece.rstrip())))
        start = end
        while start < len(text) and text[start].isspace():
            start += 1
    merged: list[tuple[int, int]] = []
    pending: tuple[int, int] | None = None
    for span in spans:
        if pending is not None:
            span = (pending[0], span[1])
            pending = None
        if len(_WORD.findall(text[span[0] : span[1]])) < MIN_SENTENCE_WORDS:
            pending = span
            continue
        merged.append(span)
    if pending is not None:
        if merged:
            merged[-1] = (merged[-1][0], pending[1])
        else:
            merged.append(pending)
    return merged


@dataclass(frozen=True)
class _Used:
    """The used text, read once: all its words, and the words of each of its sentences."""

    words: str
    sentences: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> _Used:
        sentences = []
        for line in text.splitlines():
            for start, end in _spans(line):
                words = _words(line[start:end])
                if len(words.split()) >= MIN_USED_WORDS:
                    sentences.append(words)
        return cls(words=_words(text), sentences=tuple(sentences))

    def uses(self, sentence: str) -> bool:
        words = _words(sentence)
        if len(words.split()) >= MIN_HELD_WORDS and words in self.words:
            return True
        return any(used in words for used in self.sentences)


@dataclass
class _Block:
    """The text of one block element: its text runs as (html start, html end) and their plain
    text, with each plain character's place in the HTML."""

    heading: bool
    runs: list[tuple[int, int]]
    plain: str = ""
    places: list[tuple[int, int]] = field(default_factory=list)  # plain char -> html range


def _blocks(markup: str) -> list[_Block]:
    blocks: list[_Block] = []
    current = _Block(heading=False, runs=[])
    position = 0

    def close(next_heading: bool) -> None:
        nonlocal current
        if current.runs:
            blocks.append(current)
        current = _Block(heading=next_heading, runs=[])

    for tag in _TAG.finditer(markup):
        if tag.start() > position:
            current.runs.append((position, tag.start()))
        name = _TAG_NAME.match(tag.group(0))
        lowered = name.group(1).lower() if name else ""
        if lowered in _BLOCK:
            opening = not tag.group(0).startswith("</")
            close(next_heading=opening and lowered in _HEADING)
        position = tag.end()
    if position < len(markup):
        current.runs.append((position, len(markup)))
    close(next_heading=False)
    for block in blocks:
        plain: list[str] = []
        places: list[tuple[int, int]] = []
        for start, end in block.runs:
            for char in _CHAR.finditer(markup, start, end):
                plain.append(html_lib.unescape(char.group(0))[:1] or " ")
                places.append((char.start(), char.end()))
        block.plain = "".join(plain)
        block.places = places
    return blocks


def mark(section_html: str, used: str, *, first_id: str) -> tuple[str, int]:
    """``section_html`` with each sentence it holds that ``used`` used wrapped in ``<mark>``;
    the first mark has ``id=first_id``. Returns the HTML and how many sentences were marked."""
    reading = _Used.of(used)
    if not reading.sentences and not reading.words.strip():
        return section_html, 0
    cuts: list[tuple[int, int]] = []  # html ranges to wrap, in document order
    marked = 0
    for block in _blocks(section_html):
        if block.heading or not block.plain.strip():
            continue
        passage: tuple[int, int] | None = None
        passages: list[tuple[int, int]] = []
        for start, end in _spans(block.plain):
            if reading.uses(block.plain[start:end]):
                marked += 1
                passage = (passage[0], end) if passage else (start, end)
            elif passage:
                passages.append(passage)
                passage = None
        if passage:
            passages.append(passage)
        for start, end in passages:
            cuts.extend(_html_ranges(block, start, end))
    out = section_html
    for index, (start, end) in reversed(list(enumerate(cuts))):
        attr = f' id="{first_id}"' if index == 0 else ""
        out = f'{out[:start]}<mark class="cited"{attr}>{out[start:end]}</mark>{out[end:]}'
    return out, marked


def _html_ranges(block: _Block, start: int, end: int) -> list[tuple[int, int]]:
    """The HTML ranges holding plain characters ``start:end`` of ``block``, one per text run."""
    ranges: list[tuple[int, int]] = []
    for html_start, html_end in block.places[start:end]:
        if ranges and ranges[-1][1] == html_start:
            ranges[-1] = (ranges[-1][0], html_end)
        else:
            ranges.append((html_start, html_end))
    return ranges
