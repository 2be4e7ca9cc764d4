"""Where a cited excerpt sits in its session source: the anchor, and a citable segment."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Anchor:
    """Where an excerpt sits in its source; only the fields that apply are set."""

    page: int | None = None
    line_range: str | None = None
    row_number: int | None = None
    column_name: str | None = None
    json_path: str | None = None
    section: str | None = None
    paragraph: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @property
    def label(self) -> str:
        """A short human reading, e.g. ``page 2`` or ``section: Architecture overview, paragraph 3``."""
        parts = []
        if self.page is not None:
            parts.append(f"page {self.page}")
        if self.line_range is not None:
            parts.append(f"lines {self.line_range}")
        if self.section is not None:
            parts.append(f"section: {self.section}")
        if self.paragraph is not None:
            parts.append(f"paragraph {self.paragraph}")
        if self.row_number is not None:
            parts.append(f"row {self.row_number}")
        if self.column_name is not None:
            parts.append(f"column: {self.column_name}")
        if self.json_path is not None:
            parts.append(f"JSON path {self.json_path}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Segment:
    """One citable excerpt of a session source: its text and where it came from."""

    text: str
    anchor: Anchor
