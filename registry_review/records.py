"""The registry's value types: a valid source record, the report on one record and on a registry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.issues import Issue


@dataclass(frozen=True)
class QueryAlias:
    """A phrasing that selects one record: the term it reports and a case-insensitive pattern."""

    term: str
    pattern: str


@dataclass(frozen=True)
class SourceRecord:
    """A valid, normalised registry record: the only shape the fetch adapter ever sees."""

    id: str
    title: str
    url: str
    allowed_origin: str
    allowed_path_prefix: str
    source_type: str
    trust_label: str
    freshness_label: str
    claim_boundary: str
    query_terms: tuple[str, ...] = ()
    query_aliases: tuple[QueryAlias, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "url": self.url,
            "allowed_origin": self.allowed_origin,
            "allowed_path_prefix": self.allowed_path_prefix,
            "source_type": self.source_type,
            "trust_label": self.trust_label,
            "freshness_label": self.freshness_label,
            "claim_boundary": self.claim_boundary,
            "query_terms": list(self.query_terms),
        }
        if self.query_aliases:
            shown["query_aliases"] = [
                {"term": a.term, "pattern": a.pattern} for a in self.query_aliases
            ]
        return shown


@dataclass(frozen=True)
class RecordReport:
    """The verdict on one submitted record, with the submitted fields kept for display."""

    index: int
    id: str | None
    valid: bool
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    record: SourceRecord | None
    raw: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "id": self.id,
            "valid": self.valid,
            "errors": [i.message for i in self.errors],
            "warnings": [i.message for i in self.warnings],
            "details": {
                "errors": [i.to_dict() for i in self.errors],
                "warnings": [i.to_dict() for i in self.warnings],
            },
            "record": self.record.to_dict() if self.record else None,
        }


@dataclass(frozen=True)
class RegistryReport:
    """The verdict on a whole registry document: its state, document errors and each record."""

    state: str
    document_errors: tuple[Issue, ...] = ()
    records: tuple[RecordReport, ...] = ()

    @property
    def valid_records(self) -> tuple[SourceRecord, ...]:
        """Records the adapter may use: none at all when the document itself is broken."""
        if self.document_errors:
            return ()
        return tuple(r.record for r in self.records if r.valid and r.record is not None)

    @property
    def dropped_count(self) -> int:
        return sum(1 for r in self.records if not r.valid)

    @property
    def adapter_outcome(self) -> str:
        """What `allowlisted_public_fetch` would do with this registry, in a few words."""
        usable = len(self.valid_records)
        if not usable:
            return "unconfigured"
        noun = "source" if usable == 1 else "sources"
        dropped = self.dropped_count
        if dropped:
            return f"ready with {usable} {noun} ({dropped} invalid record{'s' if dropped != 1 else ''} dropped)"
        return f"ready with {usable} {noun}"

    def summary(self) -> str:
        """One plain sentence on why the registry can or cannot be used (for adapter details)."""
        if self.state == "empty":
            return "No current-source registry is configured, or it lists no sources."
        if self.document_errors:
            return "The registry cannot be used: " + " ".join(
                i.message for i in self.document_errors
            )
        if not self.valid_records:
            return "The registry has no valid source record; every record was rejected."
        return f"The registry is {self.adapter_outcome}."

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "records": [r.to_dict() for r in self.records],
            "document_errors": [i.to_dict() for i in self.document_errors],
            "adapter_outcome": self.adapter_outcome,
        }
