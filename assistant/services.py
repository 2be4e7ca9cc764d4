"""The one pipeline every front door calls: policy, retrieval, current context, provider, gate."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from assistant import citations as records
from assistant import conflict, criteria_review, gate, lanes, policy, prompt, ranking, tokens
from assistant import telemetry as tm
from assistant.context_pack import get_context_pack
from assistant.current.base import (
    RETRIEVED,
    SKIPPED,
    BaseCurrentContextAdapter,
    CurrentContextResult,
    get_adapter,
)
from assistant.modes import Mode, RunState
from assistant.providers.base import BaseProvider, ProviderError, ProviderResponse, get_provider
from assistant.retrieval import SearchResult
from assistant.types import Citation, CurrentContextStatus, Lane, Notice, PackageRow, Run
from uploads import selection as uploaded
from uploads.types import SessionSource

MAX_PACKAGE_REFS = 4
RELATIVE_SCORE_FLOOR = 0.45
SEARCH_DEPTH = 8
WEAK_TRUST_LABELS = {"community", "news", "unknown", "vendor/self-published"}
STALE_WORDS = ("stale", "outdated", "superseded", "historical", "unreviewed", "out of date")


@dataclass(frozen=True)
class _Context:
    run_id: str
    mode: Mode
    question: str
    watch: tm.Stopwatch


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
    the provider writes is shown only if the gate verifies its lanes and citation ids.
    ``session_sources`` are user-provided material to review against the package: they never
    decide package support, and only excerpts that fit after package grounding are sent.
    """
    ctx = _Context(str(uuid.uuid4()), mode, question.strip(), tm.Stopwatch())
    if not ctx.question:
        raise ValueError("question must not be empty")
    provider = provider or get_provider()
    adapter_name = (adapter.name if adapter else settings.AICD_CURRENT_CONTEXT_ADAPTER)

    intent = policy.screen_intent(ctx.question)
    if intent is not None:
        return _refused(
            ctx, policy.notice(intent), provider, adapter_name, search=None, sources=session_sources
        )

    pack = get_context_pack()
    with ctx.watch.phase("retrieval"):
        search = ranking.search(pack.index, ctx.question, k=SEARCH_DEPTH)
    decision = policy.decide(ctx.question, search, correct=pack.index.correct)
    if decision.refusal is not None:
        return _refused(
            ctx, decision.refusal, provider, adapter_name, search=search, sources=session_sources
        )

    rows = _select_rows(search)
    review = criteria_review.plan(ctx.question, session_sources, pack.review)
    if review is not None:
        # The declared criteria and the rules a draft breaks are cited like any package row.
        extra = (pack.row(row_id) for row_id in review.row_ids)
        rows += tuple(r for r in extra if r is not None and r not in rows)
    package_refs = tuple(records.package_ref(f"P{i}", row) for i, row in enumerate(rows, 1))

    current = CurrentContextResult(state=SKIPPED, detail=_skipped_detail(mode))
    if mode is Mode.PACKAGE_CURRENT:
        adapter = adapter or get_adapter()
        with ctx.watch.phase("current_retrieval"):
            current = adapter.retrieve(question=ctx.question, package_rows=rows)
    current_refs = tuple(records.current_ref(f"C{i}", r) for i, r in enumerate(current.refs, 1))

    request = prompt.ProviderRequest(
        mode=mode,
        question=ctx.question,
        lane_order=lanes.required_lanes(mode, with_uploads=False),
        package_refs=package_refs,
        current_refs=current_refs,
    )
    upload, request = _with_uploads(request, session_sources, review)
    sent_citations = tuple(
        [records.package_citation(f"P{i}", row) for i, row in enumerate(rows, 1)]
        + [records.current_citation(f"C{i}", r) for i, r in enumerate(current.refs, 1)]
        + [records.uploaded_citation(f"U{i}", e) for i, e in enumerate(upload.excerpts, 1)]
    )
    notices = _narrowing_notices(mode, current) + _conflict_notice(request)
    if upload.cut:
        notices += (policy.notice(policy.Pattern.UPLOADED_SOURCE_TRUNCATED),)
    usage = _usage(request)

    try:
        with ctx.watch.phase("provider"):
            response = provider.complete(request)
    except ProviderError as exc:
        return _diagnostic(
            ctx, f"The provider could not answer ({exc.code}): {exc.message}", provider,
            adapter_name, current, sent_citations, notices, usage, pack.package_version,
            upload=upload,
        )
    usage = _with_completion(usage, response)
    verdict = gate.verify(response.text, request)
    if not verdict.ok:
        message = "The provider's answer did not pass verification and is not shown: " + "; ".join(
            verdict.problems
        )
        return _diagnostic(
            ctx, message, provider, adapter_name, current, sent_citations, notices, usage,
            pack.package_version, model=response.model, upload=upload,
        )

    # Each class in the order the answer first cites it, so the first package citation listed
    # is the one the answer leads with.
    first_cited = {cid: n for n, cid in enumerate(dict.fromkeys(
        cid for lane in verdict.lanes for cid in lane.citation_ids
    ))}
    shown = tuple(sorted(
        (c for c in sent_citations if c.id in first_cited),
        key=lambda c: (lanes.CITATION_CLASSES.index(c.citation_class), first_cited[c.id]),
    ))
    return _finish(
        ctx,
        state=RunState.ANSWERED,
        refusal=None,
        notices=notices,
        lanes_=verdict.lanes,
        citations=shown,
        current=current,
        adapter_name=adapter_name,
        behaviors=_behaviors(mode, current, provider_called=True, refused=False),
        provider=provider,
        model=response.model,
        usage=usage,
        package_version=pack.package_version,
        selected=(len(package_refs), len(current_refs)),
        upload=upload,
    )


def _with_uploads(
    request: prompt.ProviderRequest,
    sources: Sequence[SessionSource],
    review: criteria_review.Plan | None = None,
) -> tuple[uploaded.UploadSelection, prompt.ProviderRequest]:
    """Add the uploaded excerpts that fit once package (and current) context has been counted."""
    if not sources:
        return uploaded.EMPTY_SELECTION, request
    grounding = sum(map(tokens.count_shared, prompt.package_group_parts(request)))
    if request.mode is Mode.PACKAGE_CURRENT:
        grounding += tokens.count(prompt.current_group(request))
    upload = uploaded.select(
        sources=sources,
        question=request.question,
        package_text="\n".join(ref.text for ref in request.package_refs),
        package_tokens=grounding,
        required=review.evidence_positions if review else frozenset(),
    )
    refs = tuple(records.uploaded_ref(f"U{i}", e) for i, e in enumerate(upload.excerpts, 1))
    if not refs:
        return upload, request
    checks: tuple[criteria_review.Check, ...] = ()
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
        checks = criteria_review.tie(review, package_ids=package_ids, upload_ids=upload_ids)
    return upload, dataclasses.replace(
        request,
        uploaded_refs=refs,
        lane_order=lanes.required_lanes(request.mode, with_uploads=True),
        criteria=checks,
        draft_kind=review.kind if review else "",
    )


def _select_rows(search: SearchResult) -> tuple[PackageRow, ...]:
    top = search.top_score
    picked = [h.row for h in search.hits if h.score >= top * RELATIVE_SCORE_FLOOR]
    return tuple(picked[:MAX_PACKAGE_REFS])


def _skipped_detail(mode: Mode) -> str:
    if mode is Mode.PACKAGE_ONLY:
        return "Package-only mode: current/public retrieval is not used."
    return "Refused before current/public retrieval: approved package support is required first."


def _narrowing_notices(mode: Mode, current: CurrentContextResult) -> tuple[Notice, ...]:
    if mode is not Mode.PACKAGE_CURRENT:
        return ()
    if current.state != RETRIEVED or not current.refs:
        return (policy.notice(policy.Pattern.NO_CURRENT_SOURCE_SUPPORT),)
    weak = any(
        r.trust_label in WEAK_TRUST_LABELS or any(w in r.freshness_label.lower() for w in STALE_WORDS)
        for r in current.refs
    )
    return (policy.notice(policy.Pattern.STALE_OR_WEAK_CURRENT_SOURCE),) if weak else ()


def _conflict_notice(request: prompt.ProviderRequest) -> tuple[Notice, ...]:
    """package_current_conflict when a sent package and current source state opposite obligations."""
    if not request.current_refs or conflict.detect(request.package_refs, request.current_refs) is None:
        return ()
    return (policy.notice(policy.Pattern.PACKAGE_CURRENT_CONFLICT),)


def _usage(request: prompt.ProviderRequest) -> tokens.TokenUsage:
    return tokens.TokenUsage(
        package_context_tokens=sum(map(tokens.count_shared, prompt.package_group_parts(request))),
        current_public_source_tokens=(
            tokens.count(prompt.current_group(request)) if request.mode is Mode.PACKAGE_CURRENT else 0
        ),
        uploaded_session_source_tokens=(
            tokens.count(prompt.uploaded_group(request)) if request.uploaded_refs else 0
        ),
        user_prompt_tokens=tokens.count(request.question),
        system_instruction_tokens=tokens.count_shared(request.system_instructions),
    )


def _with_completion(usage: tokens.TokenUsage, response: ProviderResponse) -> tokens.TokenUsage:
    reported = response.completion_tokens
    completion = reported if reported is not None and reported >= 0 else tokens.count(response.text)
    return dataclasses.replace(usage, completion_tokens=completion)


def _behaviors(
    mode: Mode, current: CurrentContextResult, *, provider_called: bool, refused: bool
) -> list[str]:
    out = []
    if mode is Mode.PACKAGE_ONLY:
        out.append(tm.PACKAGE_ONLY)
    out.append(tm.CURRENT_RETRIEVAL if current.attempted else tm.RETRIEVAL_SKIPPED)
    out.append(tm.PROVIDER_CALLED if provider_called else tm.PROVIDER_SKIPPED)
    if refused:
        out.append(tm.DETERMINISTIC_REFUSAL)
    return out


def _refused(
    ctx: _Context,
    refusal: Notice,
    provider: BaseProvider,
    adapter_name: str,
    *,
    search: SearchResult | None,
    sources: Sequence[SessionSource] = (),
) -> Run:
    current = CurrentContextResult(state=SKIPPED, detail=_skipped_detail(ctx.mode))
    return _finish(
        ctx,
        state=RunState.REFUSED,
        refusal=refusal,
        notices=(),
        lanes_=(),
        citations=(),
        current=current,
        adapter_name=adapter_name,
        behaviors=_behaviors(ctx.mode, current, provider_called=False, refused=True),
        provider=provider,
        model=provider.model,
        usage=tokens.TokenUsage(user_prompt_tokens=tokens.count(ctx.question)),
        package_version=get_context_pack().package_version if search is not None else "",
        selected=(0, 0),
        upload=uploaded.UploadSelection(refused_source_count=len(sources)),
    )


def _diagnostic(
    ctx: _Context,
    message: str,
    provider: BaseProvider,
    adapter_name: str,
    current: CurrentContextResult,
    sent: tuple[Citation, ...],
    notices: tuple[Notice, ...],
    usage: tokens.TokenUsage,
    package_version: str,
    *,
    model: str | None = None,
    upload: uploaded.UploadSelection = uploaded.EMPTY_SELECTION,
) -> Run:
    package_n = sum(1 for c in sent if c.citation_class == lanes.PACKAGE_CITATION)
    current_n = sum(1 for c in sent if c.citation_class == lanes.CURRENT_CITATION)
    return _finish(
        ctx,
        state=RunState.DIAGNOSTIC,
        refusal=None,
        notices=notices,
        lanes_=(),
        citations=sent,
        current=current,
        adapter_name=adapter_name,
        behaviors=_behaviors(ctx.mode, current, provider_called=True, refused=False),
        provider=provider,
        model=model or provider.model,
        usage=usage,
        package_version=package_version,
        selected=(package_n, current_n),
        diagnostic=message,
        upload=upload,
    )


def _finish(
    ctx: _Context,
    *,
    state: RunState,
    refusal: Notice | None,
    notices: tuple[Notice, ...],
    lanes_: tuple[Lane, ...],
    citations: tuple[Citation, ...],
    current: CurrentContextResult,
    adapter_name: str,
    behaviors: list[str],
    provider: BaseProvider,
    model: str,
    usage: tokens.TokenUsage,
    package_version: str,
    selected: tuple[int, int],
    diagnostic: str | None = None,
    upload: uploaded.UploadSelection = uploaded.EMPTY_SELECTION,
) -> Run:
    body = tm.summary(
        tm.TelemetryInput(
            mode=ctx.mode,
            behaviors=behaviors,
            provider=provider.name,
            model=model,
            usage=usage,
            refusal_state=refusal.pattern if refusal else None,
            citations=citations,
            package_refs_selected=selected[0],
            current_refs_selected=selected[1],
            uploaded_refs_selected=len(upload.excerpts),
            external_retrieval_count=len(current.refs),
            package_version=package_version,
            current_freshness=[r.freshness_label for r in current.refs],
            extra=upload.telemetry(),
        ),
        ctx.watch,
    )
    run = Run(
        run_id=ctx.run_id,
        mode=ctx.mode,
        state=state,
        refusal=refusal,
        notices=notices,
        lanes=lanes_,
        citations=citations,
        current_context=CurrentContextStatus(
            adapter=adapter_name, state=current.state, detail=current.detail
        ),
        derivative_output_label=policy.DERIVATIVE_OUTPUT_LABEL,
        telemetry=body,
        diagnostic=diagnostic,
    )
    tm.log_run(run.run_id, body, state.value)
    return run
