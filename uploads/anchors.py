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
        readings = (
            ("page", self.page),
            ("lines", self.line_range),
            ("section:", self.section),
            ("paragraph", self.paragraph),
            ("row", self.row_number),
            ("column:", self.column_name),
            ("JSON path", self.json_path),
        )
        return ", ".join(f"{name} {value}" for name, value in readings if value is not None)


@dataclass(frozen=True)
class Segment:
    """One citable excerpt of a session source: its text and where it came from."""

    text: str
    anchor: Anchor
