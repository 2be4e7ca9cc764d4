"""The assistant's value types: rows, citations, lanes, notices and the run result (modes: modes.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from assistant.domain.modes import Mode, RunState


@dataclass(frozen=True)
class PackageRow:
    """One section of one approved package artifact, as carried by the context pack."""

    row_id: str
    title: str
    heading: str
    text: str
    source_path: str
    anchor: str
    reader_target: str
    source_family: str
    source_quality: str
    claim_boundary: str
    topic: str
    # What the section is, where the package says so (docs/package-format.md): guidance,
    # checklist, definition, example or anti-pattern.
    kind: str = "guidance"

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True)
class Citation:
    """A cited source, in exactly one citation class; never merged with another class."""

    id: str
    citation_class: str
    title: str
    excerpt: str
    claim_boundary: str
    fields: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "citation_class": self.citation_class,
            "title": self.title,
            "excerpt": self.excerpt,
            "claim_boundary": self.claim_boundary,
            **self.fields,
        }


@dataclass(frozen=True)
class Lane:
    label: str
    text: str
    citation_ids: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "text": self.text, "citation_ids": list(self.citation_ids)}


@dataclass(frozen=True)
class Notice:
    """A refusal or narrowing pattern with its stable message."""

    pattern: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"pattern": self.pattern, "message": self.message}


@dataclass(frozen=True)
class CurrentContextStatus:
    adapter: str
    state: str
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"adapter": self.adapter, "state": self.state, "detail": self.detail}


@dataclass(frozen=True)
class StructuredReview:
    """A criteria-driven review of uploaded drafts: the draft kind and one finding per criterion.

    Each finding is a plain dict (``review_findings.findings``): criterion, status, the draft
    sentence it rests on with its location, and the package row that states the criterion.
    """

    draft_kind: str
    criteria: tuple[dict[str, Any], ...]
    #: The draft's sentences that are never evidence (an instruction to the reviewer, a claimed
    #: approval, a restated criterion), each with its location and a plain note.
    not_evidence: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "draft_kind": self.draft_kind,
            "criteria": [dict(c) for c in self.criteria],
            "not_evidence": [dict(n) for n in self.not_evidence],
        }


@dataclass(frozen=True)
class Run:
    """The result of one assistant run: answered, refused or diagnostic."""

    run_id: str
    mode: Mode
    state: RunState
    refusal: Notice | None
    notices: tuple[Notice, ...]
    lanes: tuple[Lane, ...]
    citations: tuple[Citation, ...]
    current_context: CurrentContextStatus
    derivative_output_label: str
    telemetry: dict[str, Any]
    diagnostic: str | None = None
    review: StructuredReview | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "run_id": self.run_id,
            "mode": self.mode.value,
            "state": self.state.value,
            "refusal": self.refusal.to_dict() if self.refusal else None,
            "notices": [n.to_dict() for n in self.notices],
            "lanes": [lane.to_dict() for lane in self.lanes],
            "citations": [c.to_dict() for c in self.citations],
            "current_context": self.current_context.to_dict(),
            "derivative_output_label": self.derivative_output_label,
            "telemetry": self.telemetry,
            "review": self.review.to_dict() if self.review else None,
        }
        if self.diagnostic is not None:
            body["diagnostic"] = self.diagnostic
        return body

    def citations_of_class(self, citation_class: str) -> list[Citation]:
        return [c for c in self.citations if c.citation_class == citation_class]
