"""`allowlisted_public_fetch`: current/public context from the owner-approved registry, server-side only."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from django.conf import settings

from assistant.current.base import (
    FAIL_CLOSED,
    NOT_RETRIEVED,
    RETRIEVED,
    UNCONFIGURED,
    BaseCurrentContextAdapter,
    CurrentContextResult,
    CurrentRef,
)
from assistant.current.fetch import Fetcher, FetchError
from assistant.current.selection import select_sources
from assistant.domain.types import PackageRow
from assistant.package.sentences import split_sentences
from core.text import content_stems
from registry_review.configured import configured_registry_report
from registry_review.records import RegistryReport, SourceRecord

logger = logging.getLogger("assistant.current")

MAX_SNIPPET_CHARS = 1200


def default_fetcher() -> Fetcher:
    """The production fetcher: system resolver, public peers only, the operator's allowed ports."""
    ports = frozenset(settings.AICD_CURRENT_CONTEXT_ALLOWED_PORTS or ())
    return Fetcher(allowed_ports=ports)


class AllowlistedPublicFetchAdapter(BaseCurrentContextAdapter):
    """Fetches at most 3 registry sources that the question names; every failure fails closed."""

    name = "allowlisted_public_fetch"

    def __init__(
        self,
        *,
        fetcher: Fetcher | None = None,
        registry: Callable[[], RegistryReport] = configured_registry_report,
        clock: Callable[[], datetime] | None = None,
    ):
        self.fetcher = fetcher
        self.registry = registry
        self.clock = clock or (lambda: datetime.now(UTC))

    def retrieve(
        self, *, question: str, package_rows: tuple[PackageRow, ...]
    ) -> CurrentContextResult:
        try:
            return self._retrieve(question, package_rows)
        except Exception as exc:  # noqa: BLE001 - a bug here must still fail closed, never a 500
            # The type only: a message or traceback could carry question text into the logs.
            logger.error("current-context adapter failed unexpectedly: %s", type(exc).__name__)
            return CurrentContextResult(
                state=FAIL_CLOSED,
                detail="Current/public retrieval failed closed because of an unexpected error; no current claim is made.",
                attempted=True,
            )

    def _retrieve(
        self, question: str, package_rows: tuple[PackageRow, ...]
    ) -> CurrentContextResult:
        if not package_rows:
            return CurrentContextResult(
                state=NOT_RETRIEVED,
                detail="No approved package support, so no current/public source was fetched.",
            )
        report = self.registry()
        records = report.valid_records
        if not records:
            return CurrentContextResult(
                state=UNCONFIGURED,
                detail=(
                    "Current/public retrieval is enabled, but the source registry "
                    "(AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON) is unusable: "
                    f"{report.summary()} No current/public source was fetched."
                ),
            )
        selected = select_sources(question, records)
        if not selected:
            return CurrentContextResult(
                state=NOT_RETRIEVED,
                detail="No source in the owner-approved registry matches this question; nothing was fetched.",
            )
        fetcher = self.fetcher or default_fetcher()
        refs: list[CurrentRef] = []
        failures: list[str] = []
        for choice in selected:
            try:
                document = fetcher.fetch(choice.record)
            except FetchError as exc:
                failures.append(f"{choice.record.id}: {exc.reason}")
                continue
            refs.append(self._ref(choice.record, document.url, document.text, question))
        dropped = (
            f" Dropped registry records: {report.dropped_count}." if report.dropped_count else ""
        )
        if not refs:
            return CurrentContextResult(
                state=FAIL_CLOSED,
                detail=(
                    "Current/public retrieval failed closed; no current claim is made. "
                    + "; ".join(failures)
                    + "."
                    + dropped
                ),
                attempted=True,
            )
        detail = (
            f"Retrieved {len(refs)} current/public source(s) from the owner-approved registry: "
            + ", ".join(r.source_id for r in refs)
            + "."
        )
        if failures:
            detail += " Failed closed: " + "; ".join(failures) + "."
        return CurrentContextResult(
            state=RETRIEVED, detail=detail + dropped, refs=tuple(refs), attempted=True
        )

    def _ref(self, record: SourceRecord, url: str, text: str, question: str) -> CurrentRef:
        return CurrentRef(
            source_id=record.id,
            title=record.title,
            url=url,
            source_type=record.source_type,
            trust_label=record.trust_label,
            freshness_label=record.freshness_label,
            claim_boundary=record.claim_boundary,
            retrieved_at=self.clock().astimezone(UTC).isoformat(timespec="seconds"),
            snippet=best_snippet(text, question, record.query_terms),
        )


def best_snippet(
    text: str, question: str, query_terms: tuple[str, ...] = (), *, limit: int = MAX_SNIPPET_CHARS
) -> str:
    """The sentences of ``text`` that best match the question, in page order, at most ``limit`` chars."""
    wanted = set(content_stems(question)) | set(content_stems(" ".join(query_terms)))
    sentences = split_sentences(text)
    if not sentences:
        return _cut(" ".join(text.split()), limit)
    overlap = [len(wanted.intersection(content_stems(s))) for s in sentences]
    ranked = sorted(
        (i for i in range(len(sentences)) if overlap[i]), key=lambda i: (-overlap[i], i)
    )
    if not ranked:
        ranked = list(range(len(sentences)))  # nothing matches: the page's opening sentences
    chosen: list[int] = []
    size = 0
    for i in ranked:
        extra = len(sentences[i]) + (1 if chosen else 0)
        if size + extra > limit:
            continue
        chosen.append(i)
        size += extra
    if not chosen:
        return _cut(sentences[ranked[0]], limit)
    return " ".join(sentences[i] for i in sorted(chosen))


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"
