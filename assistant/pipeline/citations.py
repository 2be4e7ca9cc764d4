"""Citation records by class: package, current/public and uploaded/session, never merged."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from assistant.current.base import CurrentRef
from assistant.domain import lanes
from assistant.domain.prompt import SourceRef
from assistant.domain.types import Citation, PackageRow
from core.text import excerpt
from uploads.boundary import AUTHORITY_NOTE, CLAIM_BOUNDARY
from uploads.selection import Excerpt
from uploads.types import RETENTION, SOURCE_CLASS

CURRENT_AUTHORITY_NOTE = (
    "Current/public context. Not approved package authority and not approval of any kind."
)


@lru_cache(maxsize=4096)
def _package_excerpt(text: str) -> str:
    """``excerpt`` of approved package text, remembered: it is the same for every reviewer.

    Only package rows come through here; uploaded and current/public text is never kept.
    """
    return excerpt(text)


def package_ref(citation_id: str, row: PackageRow) -> SourceRef:
    return SourceRef(
        citation_id=citation_id,
        citation_class=lanes.PACKAGE_CITATION,
        title=f"{row.title} — {row.heading}",
        text=row.text,
        meta={
            "source_path": row.source_path,
            "claim_boundary": row.claim_boundary,
            "section_kind": row.kind,
            "row_id": row.row_id,
        },
    )


def package_citation(citation_id: str, row: PackageRow) -> Citation:
    return Citation(
        id=citation_id,
        citation_class=lanes.PACKAGE_CITATION,
        title=f"{row.title} — {row.heading}",
        excerpt=_package_excerpt(row.text),
        claim_boundary=row.claim_boundary,
        fields={
            "source_path": row.source_path,
            "reader_target": row.reader_target,
            "source_family": row.source_family,
            "source_quality": row.source_quality,
            "row_id": row.row_id,
        },
    )


def current_ref(citation_id: str, ref: CurrentRef) -> SourceRef:
    return SourceRef(
        citation_id=citation_id,
        citation_class=lanes.CURRENT_CITATION,
        title=ref.title,
        text=ref.snippet,
        meta={
            "url": ref.url,
            "trust_label": ref.trust_label,
            "freshness_label": ref.freshness_label,
            "retrieved_at": ref.retrieved_at,
            "claim_boundary": ref.claim_boundary,
        },
    )


def current_citation(citation_id: str, ref: CurrentRef) -> Citation:
    return Citation(
        id=citation_id,
        citation_class=lanes.CURRENT_CITATION,
        title=ref.title,
        excerpt=ref.snippet,
        claim_boundary=ref.claim_boundary,
        fields={
            "url": ref.url,
            "source_id": ref.source_id,
            "source_type": ref.source_type,
            "trust_label": ref.trust_label,
            "freshness_label": ref.freshness_label,
            "retrieved_at": ref.retrieved_at,
            "authority_note": CURRENT_AUTHORITY_NOTE,
        },
    )


def class_counts(citations: Iterable[Citation]) -> dict[str, int]:
    counts = Counter(c.citation_class for c in citations)
    return {cls: counts.get(cls, 0) for cls in lanes.CITATION_CLASSES}


# ------------------------------------------------------------------ uploaded/session citations
def uploaded_ref(citation_id: str, item: Excerpt) -> SourceRef:
    return SourceRef(
        citation_id=citation_id,
        citation_class=lanes.UPLOADED_CITATION,
        title=f"{item.record.display_title} — {item.anchor.label}",
        text=item.text,
        meta={
            "display_title": item.record.display_title,
            "anchor": item.anchor.label,
            "session_source_id": item.record.session_source_id,
            "file_type": item.record.file_type,
            "extraction_confidence": item.record.extraction_confidence,
            "authority": AUTHORITY_NOTE,
        },
    )


def uploaded_citation(citation_id: str, item: Excerpt) -> Citation:
    return Citation(
        id=citation_id,
        citation_class=lanes.UPLOADED_CITATION,
        title=f"{item.record.display_title} — {item.anchor.label}",
        excerpt=excerpt(item.text),
        claim_boundary=CLAIM_BOUNDARY,
        fields={
            "source_class": SOURCE_CLASS,
            "session_source_id": item.record.session_source_id,
            "display_title": item.record.display_title,
            "file_type": item.record.file_type,
            "anchor": item.anchor.to_dict(),
            "anchor_label": item.anchor.label,
            "extraction_confidence": item.record.extraction_confidence,
            "retention": RETENTION,
            "authority_note": AUTHORITY_NOTE,
        },
    )
