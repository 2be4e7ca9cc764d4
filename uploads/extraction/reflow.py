"""PDF text re-flowed into paragraphs: line breaks inside a paragraph joined, line-end hyphens undone.

A PDF's text layer breaks lines where the page did. Splitting sentences at those breaks quotes
fragments ("...in order to describe an"), so each page is re-flowed first: one paragraph per line.

A page number on a line of its own ("12", "Page 3", "4 / 14", "- 7 -") is a paragraph of its own,
never the end of the sentence above it. A line ends its paragraph when the next line is blank or
starts a list item, or when it ends a
sentence short of the page's usual line width, or when it is a short line followed by a capitalised
line (a heading or a label). Otherwise the next line
continues it; a line ending in a hyphen after a lower-case letter, followed by a lower-case
word, is joined without the hyphen (``inter-`` + ``national`` = ``international``).
"""

from __future__ import annotations

import re

_LIST_START = re.compile(
    r"^(?:[-*\u2022\u25aa\u25cf\u2013\u2014\u00b7]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s)"
)
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013]?\s*\d{1,4}\s*(?:(?:/|of)\s*\d{1,4})?\s*[-\u2013]?$", re.I
)
_SENTENCE_END = re.compile(r"[.!?:;][\"'\u201d\u2019)\]]*$")
_HYPHENATED = re.compile(r"[a-z\u00df-\u00ff]-$")
_SOFT_HYPHEN = "\u00ad"
#: A line shorter than this share of the page's usual width does not reach the right margin.
SHORT_LINE = 0.85
#: The usual width is at least this, so a page of a few short lines is not taken for a column.
MIN_WIDTH = 60


def reflow(page: str) -> str:
    """One page of extracted text with each paragraph on one line, in order; blank lines dropped."""
    lines = [line.strip() for line in page.split("\n")]
    width = _usual_width(lines)
    paragraphs: list[str] = []
    # The paragraph so far as parts, joined once it ends, and its last two characters: adding to
    # one string and searching it line by line takes quadratic time on a page-long paragraph.
    parts: list[str] = []
    tail = ""
    last = len(lines) - 1
    for index, line in enumerate(lines):
        if not line:
            if parts:
                paragraphs.append("".join(parts))
            parts, tail = [], ""
            continue
        if parts and (
            (_HYPHENATED.search(tail) and line[:1].islower()) or tail.endswith(_SOFT_HYPHEN)
        ):
            parts[-1] = parts[-1][:-1]
            tail = tail[:-1]
        elif parts:
            parts.append(" ")
            tail = " "
        parts.append(line)
        tail = (tail + line)[-2:]
        following = lines[index + 1] if index < last else ""
        if _ends_paragraph(line, following, width):
            paragraphs.append("".join(parts))
            parts, tail = [], ""
    if parts:
        paragraphs.append("".join(parts))
    return "\n".join(paragraphs)


def _usual_width(lines: list[str]) -> int:
    """The page's usual full line length: the 80th percentile of its longer lines."""
    lengths = sorted(len(line) for line in lines if len(line) >= 20)
    if not lengths:
        return MIN_WIDTH
    return max(MIN_WIDTH, lengths[min(len(lengths) - 1, int(len(lengths) * 0.8))])


def _ends_paragraph(line: str, following: str, width: int) -> bool:
    if not following or _LIST_START.match(following):
        return True
    if _PAGE_NUMBER.match(following) or _PAGE_NUMBER.match(line):
        return True
    short = len(line) < SHORT_LINE * width
    if _SENTENCE_END.search(line):
        return short
    if _HYPHENATED.search(line) or line.endswith(_SOFT_HYPHEN):
        return False
    return short and following[:1].isupper()
