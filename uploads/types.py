"""Session-source value types: anchors, the extraction record, segments and the session source."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from uploads.anchors import Segment
from uploads.file_types import label_of
from uploads.segments import segments_of

SOURCE_CLASS = "uploaded_session_source"
RETENTION = "session_only"

CONFIDENCE_HIGH = "high"
CONFIDENCE_PARTIAL = "partial"
STATUS_ACCEPTED = "accepted"
STATUS_PARTIAL = "partially extracted"
STATUS_TRUNCATED = "truncated"
#: The notice a source kept in part carries, on its record and in every run that uses it.
TRUNCATED_NOTICE = "uploaded_source_truncated"


@dataclass(frozen=True)
class ExtractionRecord:
    """The extracted-source record of the design, field for field; it holds no source text."""

    source_class: str
    session_source_id: str
    display_title: str
    file_type: str
    raw_size_bytes: int
    extracted_character_count: int
    estimated_tokens: int
    extraction_method: str
    extraction_confidence: str
    extraction_status: str
    anchors_available: tuple[str, ...]
    classification_label: str
    retention: str
    #: What was kept of a source cut at the session's character budget ("pages 1-54 of 74");
    #: empty when the whole source was kept.
    kept: str = ""
    notices: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        body = asdict(self)
        body["anchors_available"] = list(self.anchors_available)
        body["notices"] = list(self.notices)
        return body

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExtractionRecord:
        values = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        values["anchors_available"] = tuple(values["anchors_available"])
        values["notices"] = tuple(values.get("notices", ()))
        return cls(**values)

    @property
    def kept_in_part(self) -> bool:
        """True for a source cut at the session's character budget."""
        return bool(self.kept)

    @property
    def type_label(self) -> str:
        return label_of(self.file_type)

    @property
    def added_confirmation(self) -> str:
        """What the reviewer is told once this source is added (form and script paths alike)."""
        status = self.extraction_status
        if self.kept_in_part:
            status += f": kept {self.kept}, the session's extracted-character budget is used up"
        return (
            f"Added {self.display_title} as {self.session_source_id} "
            f"({self.extracted_character_count:,} characters, {status})."
        )


@dataclass(frozen=True)
class ExtractedText:
    """What an extractor produces: normalised text plus the little it needs to rebuild anchors.

    The text is stored once; anchors are derived from its line structure and ``meta`` (see
    uploads.segments), so the session holds no per-line bookkeeping.
    """

    file_type: str
    method: str
    text: str
    anchors_available: tuple[str, ...]
    confidence: str = CONFIDENCE_HIGH
    truncated: bool = False
    #: Set when the session's character budget cut the source: what was kept, in whole units.
    kept: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        if self.truncated or self.kept:
            return STATUS_TRUNCATED
        if self.confidence == CONFIDENCE_PARTIAL:
            return STATUS_PARTIAL
        return STATUS_ACCEPTED


@dataclass(frozen=True)
class SessionSource:
    """A kept session source: its record, its extracted text and the anchors derived from it."""

    record: ExtractionRecord
    text: str
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def session_source_id(self) -> str:
        return self.record.session_source_id

    @cached_property
    def segments(self) -> tuple[Segment, ...]:
        return segments_of(self.record.file_type, self.text, self.meta)
