"""Word headings and list items: which paragraphs open a section, which are list entries.

A heading is a paragraph with a heading style, an outline level (on the paragraph or its style),
or a short, numbered, bold paragraph that does not end like a sentence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docx.text.paragraph import Paragraph

_HEADING_STYLE = re.compile(r"^(?:heading\s*\d*|title)$", re.I)
_TYPED_NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,4}\.?|[A-Z]\.|[IVX]{1,5}\.)\s+\S")
_HEADING_CHARS = 100


def is_heading(paragraph: Paragraph, text: str) -> bool:
    """A heading by its style, its outline level (on the paragraph or its style) or its look.

    The look: a short, numbered paragraph ("2.1 Scope", or Word numbering) set in bold that
    does not end like a sentence.
    """
    style = _style_name(paragraph)
    if style and _HEADING_STYLE.match(style):
        return True
    if _outline_level(paragraph) is not None:
        return True
    if len(text) > _HEADING_CHARS or text[-1] in ".;:,!?":
        return False
    numbered = bool(_TYPED_NUMBER.match(text)) or _numbered(paragraph)
    runs = [run for run in paragraph.runs if run.text.strip()]
    return numbered and bool(runs) and all(_bold(run, paragraph) for run in runs)


def _outline_level(paragraph: Paragraph) -> int | None:
    """The paragraph's outline level 0-8 (Word's body text, level 9, is none), or None."""
    elements: list[Any] = [paragraph._p.pPr]
    try:
        style = paragraph.style
    except (KeyError, ValueError, AttributeError):
        style = None
    while style is not None and len(elements) < 10:
        elements.append(style.element.pPr)
        style = style.base_style
    for ppr in elements:
        if ppr is None:
            continue
        found = ppr.xpath("./w:outlineLvl/@w:val")
        if found:
            try:
                level = int(found[0])
            except ValueError:
                return None
            return level if 0 <= level <= 8 else None
    return None


def _numbered(paragraph: Paragraph) -> bool:
    ppr: Any = paragraph._p.pPr
    return ppr is not None and ppr.numPr is not None


def _bold(run: Any, paragraph: Paragraph) -> bool:
    if run.bold is not None:
        return bool(run.bold)
    try:
        style = paragraph.style
    except (KeyError, ValueError, AttributeError):
        return False
    return bool(style is not None and style.font is not None and style.font.bold)


def is_list_item(paragraph: Paragraph) -> bool:
    style = _style_name(paragraph) or ""
    ppr: Any = paragraph._p.pPr  # python-docx exposes numbering only on the element
    return "list" in style.lower() or (ppr is not None and ppr.numPr is not None)


def _style_name(paragraph: Paragraph) -> str | None:
    try:
        style = paragraph.style
    except (KeyError, ValueError, AttributeError):
        return None
    return style.name if style is not None else None
