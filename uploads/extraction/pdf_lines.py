"""Line breaks pypdf drops: where each run of a PDF page's text starts, and the breaks put back."""

from __future__ import annotations

from typing import Any, NamedTuple


class Run(NamedTuple):
    text: str
    x: float
    y: float
    #: The font's height on the page, or 0 when the text is not upright (rotated, mirrored).
    height: float


class Runs:
    """The runs of text pypdf reports while it extracts a page, each with where it starts.

    pypdf breaks a line when the text moves down by more than 0.8 of the font's height. Lines set
    closer than that (24-point text 19.2 points apart, as FPDF2 sets them) come out run together:
    "Line 1Line 2". A run that starts left of the run before it and at least half a font height
    below it starts a new line; ``with_line_breaks`` puts the break back.
    """

    def __init__(self) -> None:
        self.runs: list[Run] = []

    def add(self, text: str, cm: list[float], tm: list[float], font: Any, size: Any) -> None:
        """pypdf's ``visitor_text`` callback: a run of text and the matrices where it starts."""
        if not text:
            return
        try:
            # The text matrix times the current transformation matrix (PDF 1.7, 9.4.2).
            b = tm[0] * cm[1] + tm[1] * cm[3]
            c = tm[2] * cm[0] + tm[3] * cm[2]
            d = tm[2] * cm[1] + tm[3] * cm[3]
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            upright = abs(b) < 1e-6 and abs(c) < 1e-6 and d > 0
            height = float(size) * d if upright else 0.0
        except (IndexError, TypeError, ValueError):
            x = y = height = 0.0
        self.runs.append(Run(text, x, y, height))

    def with_line_breaks(self, text: str) -> str:
        """``text`` (what pypdf returned) with the line breaks pypdf dropped put back.

        When the runs do not add up to ``text`` it is returned as it is.
        """
        runs = self.runs
        if len(runs) < 2 or "".join(run.text for run in runs) != text:
            return text
        parts = [runs[0].text]
        last = runs[0]  # the last run with visible text
        for run in runs[1:]:
            if not run.text.strip():
                parts.append(run.text)
                continue
            if (
                last.height > 0
                and run.height > 0
                and run.x < last.x
                and run.y < last.y - 0.5 * last.height
                and not parts[-1].endswith("\n")
                and not run.text.startswith("\n")
            ):
                parts.append("\n")
            parts.append(run.text)
            last = run
        return "".join(parts)
