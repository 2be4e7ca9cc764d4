"""The one pipeline every front door calls: policy, retrieval, current context, provider, answer check."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

from django.conf import settings

from assistant.compose import conflict
from assistant.current.base import (
    RETRIEVED,
    BaseCurrentContextAdapter,
    CurrentContextResult,
    get_adapter,
)
from assistant.domain import lanes, prompt
from assistant.domain.modes import Mode
from assistant.domain.types import Notice, PackageRow, Run
from assistant.models.store import ModelNotReady
from assistant.package import kinds as section_kinds
from assistant.package import units
from assistant.pipeline import citations as records
from assistant.pipeline import policy
from assistant.pipeline.run_builder import RunBuilder
from assistant.providers.base import BaseProvider, ProviderError, get_provider
from assistant.retrieval import question_types, ranking
from assistant.retrieval.context_pack import get_context_pack
from assistant.retrieval.index import SearchResult
from assistant.retrieval.query import Query
from assistant.review import criteria_review, criterion_assessment
from assistant.review import findings as review_findings
from assistant.verify import verification
from core import tokens
from uploads import selection as uploaded
from uploads.types import SessionSource

logger = logging.getLogger(__name__)

MAX_PACKAGE_REFS = 4
# A row is sent when its ranker share is at least this fraction of the best row's.
RELATIVE_SCORE_FLOOR = 0.1
SEARCH_DEPTH = 8
# How far down the ranking a list question looks for a section that holds a list or table.
LISTING_DEPTH = 4
WEAK_TRUST_LABELS = {"community", "news", "unknown", "vendor/self-published"}
STALE_WORDS = ("stale", "outdated", "superseded", "historical", "unreviewed", "out of date")

#: What a reviewer reads when a model is not built (the log names the model and the command).
NOT_READY = (
    "The assistant is not ready to answer: an operator must build its models "
    "(docs/operations.md, Models). Nothing was sent to a provider."
)


def answer(
    *,
    question: str,
    mode: Mode = Mode.PACKAGE_ONLY,
    provider: BaseProvider | None = None,
    adapter: BaseCurrentContextAdapter | None = None,
    session_sources: Sequence[SessionSource] = (),
) -> Run:
    """Answer ``question`` from the approved package, or refuse deterministically.

    Refusals are decided before any current-context adapter or provider is called. The answer
    the provider writes is shown only if the answer check verifies its lanes and citation ids.
    ``session_sources`` are user-provided material to review against the package: they never
    decide package support, and only excerpts that fit after package grounding are sent.
    """
    question = question.strip()
    if not question:
        raise ValueError("question must not be empty")
    provider = provider or get_provider()
    run = RunBuilder(
        question=question,
        mode=mode,
        provider=provider,
        adapter_name=adapter.name if adapter else settings.AICD_CURRENT_CONTEXT_ADAPTER,
    )
    try:
        return _run(run, Query(question), mode, provider, adapter, session_sources)
    except ModelNotReady as exc:
        # The worker never trains: an unbuilt model ends the run at once, for the operator to fix.
        logger.error("The assistant is not ready: %s", exc)
        return run.diagnostic(NOT_READY)


def _run(
    run: RunBuilder,
    query: Query,
    mode: Mode,
    provider: BaseProvider,
    adapter: BaseCurrentContextAdapter | None,
    session_sources: Sequence[SessionSource],
) -> Run:
    """One run of ``query``: the question analysed once at the door (``assistant/retrieval/query.py``)
    and the same value read by retrieval, row selection and the provider. The intent screen,
    the answerability check, the review plan and the current-context adapter read the text."""
    question = query.text
    with run.watch.phase("screening"):
        screened = policy.screen_intent(question)
    run.screening = dict(screened.screening)
    if screened.refusal is not None and not screened.overrulable:
        return run.refused(screened.refusal, refused_sources=len(session_sources))

    pack = get_context_pack()
    run.package_version = pack.package_version
    with run.watch.phase("retrieval"):
        search = ranking.search(pack.index, query, k=SEARCH_DEPTH)
        decision = policy.decide(
            question,
            search,
            pack,
            with_sources=bool(session_sources),
            general_chat=screened.refusal,
        )
    run.screening.update(decision.screening)
    if decision.refusal is not None:
        return run.refused(decision.refusal, refused_sources=len(session_sources))

    rows = _select_rows(search, query)
    review = criteria_review.plan(
        question,
        session_sources,
        pack.review,
        pack.index.expansion,
        pack.index.idf,
        lambda row_id: tokens.count_shared(row.text) if (row := pack.row(row_id)) else 0,
    )
    if review is not None:
        # The declared criteria and the rules a draft breaks are cited like any package row.
        extra = (pack.row(row_id) for row_id in review.row_ids)
        rows += tuple(r for r in extra if r is not None and r not in rows)
    if mode is Mode.PACKAGE_CURRENT:
        adapter = adapter or get_adapter()
        with run.watch.phase("current_retrieval"):
            run.current = adapter.retrieve(question=question, package_rows=rows)
    current = run.current

    request = prompt.ProviderRequest(
        mode=mode,
        question=question,
        query=query,
        lane_order=lanes.required_lanes(mode, with_uploads=False),
        package_refs=tuple(records.package_ref(f"P{i}", row) for i, row in enumerate(rows, 1)),
        current_refs=tuple(records.current_ref(f"C{i}", r) for i, r in enumerate(current.refs, 1)),
    )
    # Tokens are counted once: the package and current groups decide the upload budget and are
    # the same numbers the run reports.
    package_tokens = sum(map(tokens.count_shared, prompt.package_group_parts(request)))
    current_tokens = (
        tokens.count(prompt.current_group(request)) if mode is Mode.PACKAGE_CURRENT else 0
    )
    run.upload, request = _with_uploads(
        request, session_sources, review, grounding_tokens=package_tokens + current_tokens
    )
    if review is not None:
        run.review = verification.safe_review(
            review_findings.findings(
                review.kind,
                request.criteria or review.checks,
                session_sources,
                pack.row,
                review.set_aside,
            )
        )
    run.usage = dataclasses.replace(
        run.usage,
        package_context_tokens=package_tokens,
        current_public_source_tokens=current_tokens,
        uploaded_session_source_tokens=(
            tokens.count(prompt.uploaded_group(request)) if request.uploaded_refs else 0
        ),
        system_instruction_tokens=tokens.count_shared(request.system_instructions),
    )
    run.sent = tuple(
        verification.safe_citation(c)
        for c in [records.package_citation(f"P{i}", row) for i, row in enumerate(rows, 1)]
        + [records.current_citation(f"C{i}", r) for i, r in enumerate(current.refs, 1)]
        + [records.uploaded_citation(f"U{i}", e) for i, e in enumerate(run.upload.excerpts, 1)]
    )
    run.notices = _narrowing_notices(mode, current) + _conflict_notice(request)
    if run.upload.cut:
        run.notices += (policy.notice(policy.Pattern.UPLOADED_SOURCE_TRUNCATED),)

    run.provider_called = True
    try:
        with run.watch.phase("provider"):
            response = provider.complete(request)
    except ProviderError as exc:
        return run.diagnostic(
            verification.safe_message(f"The provider could not answer ({exc.code}): {exc.message}")
        )
    run.record_completion(response)
    run.model = verification.safe_model(response.model, provider.model)
    verdict = verification.verify(
        response.text, request, expansion=pack.index.expansion, vocabulary=pack.index.doc_freq
    )
    run.checked = verification.telemetry(verdict.support)
    if not verdict.ok:
        return run.diagnostic(
            "The provider's answer did not pass verification and is not shown: "
            + "; ".join(verdict.problems)
        )
    return run.answered(verdict.lanes)


def _with_uploads(
    request: prompt.ProviderRequest,
    sources: Sequence[SessionSource],
    review: criteria_review.Plan | None,
    *,
    grounding_tokens: int,
) -> tuple[uploaded.UploadSelection, prompt.ProviderRequest]:
    """Add the uploaded excerpts that fit once package (and current) context has been counted."""
    if not sources:
        return uploaded.EMPTY_SELECTION, request
    upload = uploaded.select(
        sources=sources,
        question=request.question,
        package_text="\n".join(ref.text for ref in request.package_refs),
        package_tokens=grounding_tokens,
        required=review.evidence_positions if review else frozenset(),
    )
    refs = tuple(records.uploaded_ref(f"U{i}", e) for i, e in enumerate(upload.excerpts, 1))
    if not refs:
        return upload, request
    checks: tuple[criterion_assessment.Check, ...] = ()
    if review is not None:
        index_of = {source.session_source_id: i for i, source in enumerate(sources)}
        upload_ids = {
            (index_of[e.record.session_source_id], e.position): f"U{i}"
            for i, e in enumerate(upload.excerpts, 1)
        }
        package_ids: dict[str, str] = {}
        for ref in request.package_refs:
            row_id = ref.meta.get("row_id")
            if row_id:
                package_ids.setdefault(str(row_id), ref.citation_id)
        checks = review_findings.quoted_where_sent(
            review_findings.tie(review, package_ids=package_ids, upload_ids=upload_ids),
            {ref.citation_id: ref.text for ref in refs},
        )
    return upload, dataclasses.replace(
        request,
        uploaded_refs=refs,
        lane_order=lanes.required_lanes(request.mode, with_uploads=True),
        criteria=checks,
        criteria_list=review_findings.criteria_group(checks) if checks else "",
        draft_kind=review.kind if review else "",
    )


def _select_rows(search: SearchResult, query: Query) -> tuple[PackageRow, ...]:
    """The ranked rows whose ranker share is close to the best one's (assistant/retrieval/ranking.py).

    A question asking for a list ("What must ... check?") is answered by a list or table: when
    none of those rows holds one, the best-ranked checklist among the hits (or else a leading row with
    a list) is sent as well.
    """
    if not search.hits:
        return ()
    top = search.hits[0].score
    picked = [h.row for h in search.hits if h.score >= top * RELATIVE_SCORE_FLOOR]
    picked = picked[:MAX_PACKAGE_REFS]
    if query.question_type == question_types.LISTING and not any(map(_lists, picked)):
        checklists = [
            h.row for h in search.hits if h.row.kind == section_kinds.CHECKLIST and _lists(h.row)
        ]
        lists = [h.row for h in search.hits[:LISTING_DEPTH] if _lists(h.row)]
        listed = next(iter(checklists or lists), None)
        if listed is not None:
            picked = picked[: MAX_PACKAGE_REFS - 1] + [listed]
    return tuple(picked)


def _lists(row: PackageRow) -> bool:
    return any(u.kind in (units.LIST, units.TABLE) for u in units.units(row.text))


def _narrowing_notices(mode: Mode, current: CurrentContextResult) -> tuple[Notice, ...]:
    if mode is not Mode.PACKAGE_CURRENT:
        return ()
    if current.state != RETRIEVED or not current.refs:
        return (policy.notice(policy.Pattern.NO_CURRENT_SOURCE_SUPPORT),)
    weak = any(
        r.trust_label in WEAK_TRUST_LABELS
        or any(w in r.freshness_label.lower() for w in STALE_WORDS)
        for r in current.refs
    )
    return (policy.notice(policy.Pattern.STALE_OR_WEAK_CURRENT_SOURCE),) if weak else ()


def _conflict_notice(request: prompt.ProviderRequest) -> tuple[Notice, ...]:
    """package_current_conflict when a sent package and current source state opposite obligations."""
    if (
        not request.current_refs
        or conflict.detect(request.package_refs, request.current_refs) is None
    ):
        return ()
    return (policy.notice(policy.Pattern.PACKAGE_CURRENT_CONFLICT),)
