"""Plain-text and Markdown extraction: decoded with replacement, original lines kept as line anchors."""

from __future__ import annotations

from uploads.extraction.common import (
    CharBudget,
    decode,
    kept_range,
    quality_problem,
    strip_invisible,
)
from uploads.rejections import Reason, refuse
from uploads.types import CONFIDENCE_HIGH, CONFIDENCE_PARTIAL, ExtractedText

METHOD = "local_text_extract"


def extract_text(data: bytes, *, file_type: str, budget: CharBudget) -> ExtractedText:
    """``.txt``/``.md`` bytes to text whose line N is line N of the file.

    Headings, lists, tables and code fences stay as the text they are. Characters that could not
    be decoded make the confidence partial; text that is mostly undecodable is refused.
    """
    decoded = decode(data)
    return from_string(
        decoded.text, file_type=file_type, method=METHOD, budget=budget, replaced=decoded.replaced
    )


def from_string(
    text: str, *, file_type: str, method: str, budget: CharBudget, replaced: int = 0
) -> ExtractedText:
    """Normalise already-decoded text into an extraction with line anchors.

    Past what the session has left, the text is kept up to its last whole line that fits.
    """
    lines = [strip_invisible(line).rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not "".join(lines).strip():
        raise refuse(Reason.EMPTY, "The source contains no text to extract.")
    kept = 0
    for index, line in enumerate(lines):
        if not budget.take(len(line) + (1 if index else 0)):
            break
        kept += 1
    if kept == 0:
        raise budget.nothing_fits()
    while kept and not lines[kept - 1].strip():
        kept -= 1  # a cut source ends on its last kept line of text, not on blank lines
    if kept == 0:
        raise budget.nothing_fits()
    body = "\n".join(lines[:kept])
    problem = quality_problem(body)
    if problem:
        raise refuse(
            Reason.LOW_CONFIDENCE,
            f"The text is too garbled to cite reliably: {problem}. Save it as UTF-8 text and try again.",
        )
    return ExtractedText(
        file_type=file_type,
        method=method,
        text=body,
        anchors_available=("line_range",),
        confidence=CONFIDENCE_PARTIAL if replaced else CONFIDENCE_HIGH,
        kept=kept_range("lines", kept, len(lines)) if kept < len(lines) else "",
    )
