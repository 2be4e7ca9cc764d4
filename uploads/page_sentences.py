"""Sentences that a PDF page break cuts in two, read whole where sentences are quoted.

The stored text and the per-page segments stay as extracted (``uploads/segments.py``). Only
where sentences are read for quoting is a page that ends mid-sentence read together with the
start of the next page: the last line of page N, a space, and the next page's first line up to
its first sentence end. The joined sentence belongs to page N, where it starts, and page N+1 is
read without those leading words.

A break is joined only when the halves meet across nothing but whitespace in the stored text
(the form feed counts as whitespace), so the sentence is a verbatim part of the text once
whitespace is collapsed. A page-number line, or a running header or footer (a first or last
line that recurs on other pages), between the halves means no join.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from uploads.anchors import Segment

# A sentence end, closing quotes or brackets after it ("stand.'", "(see above.)").
_ENDED = re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*$")
# Where a line's first sentence ends, as the review splits sentences (assistant/review/criteria_review.py).
_FIRST_END = re.compile(r"(?<=[.!?])[\"\u201d')\]]?\s+(?=[A-Z0-9\"\u201c(])")
# The next page goes on with the sentence: a lower-case word, or punctuation that cannot start one.
_CONTINUATION_MARKS = ",;)]"
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013]?\s*\d{1,4}\s*(?:(?:/|of)\s*\d{1,4})?\s*[-\u2013]?$", re.I
)
# Lines that are not prose: table rows, Markdown headings.
_NOT_PROSE = re.compile(r"\t| \| |^\s*[|#]")
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class PageJoin:
    """Page N's last segment (``position``) goes on into the segment at ``continued``.

    ``head`` is that segment's opening words up to their first sentence end, verbatim.
    """

    position: int
    continued: int
    head: str


def page_joins(file_type: str, text: str, segments: tuple[Segment, ...]) -> dict[int, PageJoin]:
    """Each page-final segment whose sentence the next page completes, by segment position."""
    if file_type != "pdf":
        return {}
    pages = text.split("\f")
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for position, segment in enumerate(segments):
        page = segment.anchor.page
        if page is None:
            return {}
        first.setdefault(page, position)
        last[page] = position
    edges = Counter(_DIGITS.sub("#", line) for page in pages for line in _edge_lines(page))
    joins: dict[int, PageJoin] = {}
    for page, position in last.items():
        following = first.get(page + 1)
        if following is None:
            continue
        before, after = segments[position].text, segments[following].text
        # Nothing but whitespace between the halves in the stored text.
        if not (
            pages[page - 1].rstrip().endswith(before) and pages[page].lstrip().startswith(after)
        ):
            continue
        tail = before.rsplit("\n", 1)[-1].strip()
        opening = after.split("\n", 1)[0].strip()
        if not tail or not _continues(opening) or _ENDED.search(tail):
            continue
        if _PAGE_NUMBER.match(tail) or _NOT_PROSE.search(tail) or _NOT_PROSE.search(opening):
            continue
        if edges[_DIGITS.sub("#", tail)] > 1 or edges[_DIGITS.sub("#", opening)] > 1:
            continue  # a running header or footer
        end = _FIRST_END.search(opening)
        head = opening[: end.start()] if end else opening
        joins[position] = PageJoin(position, following, head)
    return joins


def _continues(opening: str) -> bool:
    return opening[:1].islower() or opening[:1] in _CONTINUATION_MARKS


def _edge_lines(page: str) -> tuple[str, ...]:
    lines = [line.strip() for line in page.split("\n") if line.strip()]
    return (lines[0], lines[-1]) if len(lines) > 1 else tuple(lines)


def lines_as_read(segment: Segment, position: int, joins: dict[int, PageJoin]) -> list[str]:
    """A segment's lines as sentences are read: a page's last line completed by the next page's
    opening words, and a page's opening words left out when the page before reads them."""
    lines = segment.text.split("\n")
    for earlier in joins.values():
        if earlier.continued == position:
            lines[0] = lines[0].lstrip()[len(earlier.head) :]
    join = joins.get(position)
    if join is not None:
        lines[-1] = f"{lines[-1].rstrip()} {join.head}"
    return lines


def continues_in(sentence: str, position: int, joins: dict[int, PageJoin]) -> int | None:
    """The position of the next page's segment when ``sentence`` is the one a page break cut."""
    join = joins.get(position)
    if join is not None and " ".join(sentence.split()).endswith(" ".join(join.head.split())):
        return join.continued
    return None
