"""Segments rebuilt from stored text: linear in the source's size, pieces cut at sentence ends."""

from __future__ import annotations

import sys
from types import FrameType

from uploads import segments
from uploads.segments import SEGMENT_CHARS, segments_of


def _steps(text: str) -> int:
    """How many lines of uploads/segments.py run to segment ``text``: an operation count."""
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> object:
        nonlocal count
        if frame.f_code.co_filename != segments.__file__:
            return None
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        segments_of("txt", text, {})
    finally:
        sys.settrace(None)
    return count


def test_one_character_lines_cost_work_linear_in_their_number(monkeypatch) -> None:
    # With blocks allowed to grow without bound, a per-line sum over the block is quadratic:
    # four times the lines would cost sixteen times the steps. Linear work costs four times.
    monkeypatch.setattr(segments, "SEGMENT_CHARS", 10**9)
    small, large = _steps("\n".join("a" * 1_000)), _steps("\n".join("a" * 4_000))
    assert large / small < 4.5, f"4x the lines took {large / small:.1f}x the steps"


def test_a_long_paragraph_is_cut_after_a_sentence_and_every_piece_is_verbatim() -> None:
    sentence = "The gateway keeps confidential contracts inside the approved data boundary. "
    paragraph = (sentence * 40).strip()
    pieces = [s.text for s in segments_of("txt", paragraph, {})]
    assert len(pieces) > 1
    assert all(piece in paragraph for piece in pieces)
    assert all(piece.endswith("boundary.") for piece in pieces)
    assert all(len(piece) <= SEGMENT_CHARS * 2 for piece in pieces)


def test_a_paragraph_without_sentence_ends_is_still_cut_at_spaces() -> None:
    paragraph = " ".join(f"word{i}" for i in range(1_000))
    pieces = [s.text for s in segments_of("txt", paragraph, {})]
    assert " ".join(pieces) == paragraph
