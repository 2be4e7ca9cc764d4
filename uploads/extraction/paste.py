"""Pasted text as a session source: limited by characters first, then handled like a text file."""

from __future__ import annotations

from uploads.extraction.dispatch import char_budget
from uploads.extraction.text import from_string
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, refuse
from uploads.types import ExtractedText

METHOD = "local_paste_extract"


def extract_paste(
    text: str, *, session_remaining: int | None, limits: Limits = LIMITS
) -> ExtractedText:
    """Pasted text with line anchors; the 25,000-character limit is checked before anything else."""
    if len(text) > limits.paste_chars:
        raise refuse(
            Reason.TOO_LARGE,
            f"The pasted text has {len(text):,} characters; pasted text is limited to "
            f"{limits.paste_chars:,} characters.",
        )
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    return from_string(
        normalised,
        file_type="paste",
        method=METHOD,
        budget=char_budget("paste", session_remaining, limits),
    )
