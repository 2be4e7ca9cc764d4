"""The run builder: one run's state, collected as the pipeline goes, ended as refused, diagnostic or answered."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

from assistant.current.base import SKIPPED, CurrentContextResult
from assistant.domain import lanes
from assistant.domain.modes import Mode, RunState
from assistant.domain.types import (
    Citation,
    CurrentContextStatus,
    Lane,
    Notice,
    Run,
    StructuredReview,
)
from assistant.pipeline import policy
from assistant.pipeline import telemetry as tm
from assistant.providers.base import BaseProvider, ProviderResponse
from assistant.verify import verification
from core import tokens
from uploads import selection as uploaded


def skipped_detail(mode: Mode) -> str:
    """Why current/public retrieval did not run, when it did not."""
    if mode is Mode.PACKAGE_ONLY:
        return "Package-only mode: current/public retrieval is not used."
    return "Refused before current/public retrieval: approved package support is required first."


class RunBuilder:
    """What one run has gathered so far; each ``refused``/``diagnostic``/``answered`` ends it.

    The pipeline sets attributes as it learns them (the package version, the current-context
    result, the citations sent, the notices, the token usage, the upload selection); ending the
    run builds its telemetry once, logs the one metadata line and returns the frozen ``Run``.
    """

    def __init__(self, *, question: str, mode: Mode, provider: BaseProvider, adapter_name: str):
        self.run_id = str(uuid.uuid4())
        self.question = question
        self.mode = mode
        self.provider = provider
        self.model = provider.model
        self.adapter_name = adapter_name
        self.watch = tm.Stopwatch()
        self.package_version = ""
        self.current = CurrentContextResult(state=SKIPPED, detail=skipped_detail(mode))
        self.sent: tuple[Citation, ...] = ()
        self.notices: tuple[Notice, ...] = ()
        self.upload = uploaded.EMPTY_SELECTION
        self.usage = tokens.TokenUsage(user_prompt_tokens=tokens.count(question))
        self.provider_called = False
        # What decided the screening (rule or model, class scores, answerability): no text.
        self.screening: dict[str, Any] = {}
        # The claim-level check of the provider's answer (assistant/verify/verification.py), once run.
        self.checked: dict[str, Any] = verification.telemetry(None)
        # The criteria-driven review of the uploads, when the run reviews a draft: returned only
        # with an answered run (a refused or withheld run has one outcome, not a review beside it).
        self.review: StructuredReview | None = None

    def record_completion(self, response: ProviderResponse) -> None:
        """The provider answered: its model and completion tokens (its own count, if it gave one)."""
        self.model = response.model
        reported = response.completion_tokens
        completion = (
            reported if reported is not None and reported >= 0 else tokens.count(response.text)
        )
        self.usage = dataclasses.replace(self.usage, completion_tokens=completion)

    def refused(self, refusal: Notice, *, refused_sources: int) -> Run:
        """A deterministic refusal: nothing retrieved beyond the package, no provider call."""
        self.upload = uploaded.UploadSelection(refused_source_count=refused_sources)
        return self._finish(RunState.REFUSED, refusal=refusal, citations=(), notices=())

    def diagnostic(self, message: str) -> Run:
        """The provider failed or its answer failed the check: the citations sent, no text.

        One outcome per run: a withheld answer carries no structured review beside it.
        """
        return self._finish(RunState.DIAGNOSTIC, citations=self.sent, diagnostic=message)

    def answered(self, answer_lanes: tuple[Lane, ...]) -> Run:
        """A checked answer: its lanes and the sent citations they cite.

        Each class is listed in the order the answer first cites it, so the first package
        citation listed is the one the answer leads with.
        """
        first = {
            cid: n
            for n, cid in enumerate(
                dict.fromkeys(cid for lane in answer_lanes for cid in lane.citation_ids)
            )
        }
        shown = tuple(
            sorted(
                (c for c in self.sent if c.id in first),
                key=lambda c: (lanes.CITATION_CLASSES.index(c.citation_class), first[c.id]),
            )
        )
        return self._finish(
            RunState.ANSWERED, citations=shown, answer_lanes=answer_lanes, review=self.review
        )

    # ------------------------------------------------------------------------ internals
    def _behaviors(self, *, refused: bool) -> list[str]:
        out = []
        if self.mode is Mode.PACKAGE_ONLY:
            out.append(tm.PACKAGE_ONLY)
        out.append(tm.CURRENT_RETRIEVAL if self.current.attempted else tm.RETRIEVAL_SKIPPED)
        out.append(tm.PROVIDER_CALLED if self.provider_called else tm.PROVIDER_SKIPPED)
        if refused:
            out.append(tm.DETERMINISTIC_REFUSAL)
        return out

    def _finish(
        self,
        state: RunState,
        *,
        citations: tuple[Citation, ...],
        refusal: Notice | None = None,
        notices: tuple[Notice, ...] | None = None,
        answer_lanes: tuple[Lane, ...] = (),
        diagnostic: str | None = None,
        review: StructuredReview | None = None,
    ) -> Run:
        body = tm.summary(
            tm.TelemetryInput(
                mode=self.mode,
                behaviors=self._behaviors(refused=refusal is not None),
                provider=self.provider.name,
                model=self.model,
                usage=self.usage,
                refusal_state=refusal.pattern if refusal else None,
                citations=citations,
                package_refs_selected=self._sent_count(lanes.PACKAGE_CITATION),
                current_refs_selected=self._sent_count(lanes.CURRENT_CITATION),
                uploaded_refs_selected=len(self.upload.excerpts),
                external_retrieval_count=len(self.current.refs),
                package_version=self.package_version,
                current_freshness=[r.freshness_label for r in self.current.refs],
                extra={
                    **self.upload.telemetry(),
                    **self.checked,
                    "screening": tm.public_screening(self.screening),
                },
            ),
            self.watch,
        )
        run = Run(
            run_id=self.run_id,
            mode=self.mode,
            state=state,
            refusal=refusal,
            notices=self.notices if notices is None else notices,
            lanes=answer_lanes,
            citations=citations,
            current_context=CurrentContextStatus(
                adapter=self.adapter_name, state=self.current.state, detail=self.current.detail
            ),
            derivative_output_label=policy.DERIVATIVE_OUTPUT_LABEL,
            telemetry=body,
            diagnostic=diagnostic,
            review=review,
        )
        tm.log_run(run.run_id, body, state.value)
        tm.log_screening(run.run_id, self.screening)
        return run

    def _sent_count(self, citation_class: str) -> int:
        return sum(1 for c in self.sent if c.citation_class == citation_class)
