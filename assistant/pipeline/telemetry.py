"""The per-run summary: returned with every run, never stored, never containing question text."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from assistant.domain.modes import Mode
from assistant.domain.types import Citation
from assistant.pipeline import citations as citation_records
from core.tokens import TokenUsage, estimate_cost

logger = logging.getLogger("assistant.runs")

PACKAGE_ONLY = "package_only"
RETRIEVAL_SKIPPED = "retrieval_skipped"
CURRENT_RETRIEVAL = "current_retrieval"
PROVIDER_CALLED = "provider_called"
PROVIDER_SKIPPED = "provider_skipped"
DETERMINISTIC_REFUSAL = "deterministic_refusal"


class Stopwatch:
    """Millisecond timings by phase."""

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self.phases: dict[str, float] = {}

    def phase(self, name: str) -> _Phase:
        return _Phase(self, name)

    def total_ms(self) -> float:
        return round((time.perf_counter() - self._start) * 1000, 2)


class _Phase:
    def __init__(self, watch: Stopwatch, name: str):
        self.watch, self.name = watch, name

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        elapsed = (time.perf_counter() - self.t0) * 1000
        self.watch.phases[self.name] = round(self.watch.phases.get(self.name, 0.0) + elapsed, 2)


@dataclass
class TelemetryInput:
    mode: Mode
    behaviors: list[str]
    provider: str
    model: str
    usage: TokenUsage
    refusal_state: str | None
    citations: Iterable[Citation]
    package_refs_selected: int = 0
    current_refs_selected: int = 0
    uploaded_refs_selected: int = 0
    external_retrieval_count: int = 0
    package_version: str = ""
    current_freshness: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def summary(data: TelemetryInput, watch: Stopwatch) -> dict[str, Any]:
    """The run summary with every CONTRACT key; `durable_logging` is always "not enabled"."""
    body = {
        "mode": data.mode.value,
        "behaviors": data.behaviors,
        "package_refs_selected": data.package_refs_selected,
        "current_refs_selected": data.current_refs_selected,
        "uploaded_refs_selected": data.uploaded_refs_selected,
        "provider": data.provider,
        "model": data.model,
        "tokens": data.usage.to_dict(),
        "estimated_cost": estimate_cost(
            data.usage,
            input_per_1k=settings.AICD_PRICE_INPUT_PER_1K,
            output_per_1k=settings.AICD_PRICE_OUTPUT_PER_1K,
        ),
        "latency_ms": {
            "total": watch.total_ms(),
            "screening": watch.phases.get("screening", 0.0),
            "retrieval": watch.phases.get("retrieval", 0.0),
            "current_retrieval": watch.phases.get("current_retrieval", 0.0),
            "provider": watch.phases.get("provider", 0.0),
        },
        "refusal_state": data.refusal_state or "none",
        "citation_class_counts": citation_records.class_counts(data.citations),
        "source_freshness": {
            "package_version": data.package_version,
            "current": data.current_freshness,
        },
        "external_retrieval_count": data.external_retrieval_count,
        "durable_logging": "not enabled",
        **data.extra,
    }
    return body


#: The screening's scores and thresholds are the operator's, never a user's: a caller who sees
#: them can tune a question until it passes. The run body keeps only what decided.
PUBLIC_SCREENING_KEYS = ("decided_by",)
screening_logger = logging.getLogger("assistant.screening")


def public_screening(screening: dict[str, Any]) -> dict[str, Any]:
    """What a run body says about its screening: the decision, never a score or threshold."""
    out = {k: screening[k] for k in PUBLIC_SCREENING_KEYS if k in screening}
    answerability = screening.get("answerability")
    if isinstance(answerability, dict):
        out["coverage_check"] = "applied" if answerability.get("applied", True) else "not applied"
    return out


def log_screening(run_id: str, screening: dict[str, Any]) -> None:
    """The screening's scores and thresholds for operators (structured, no question text)."""
    if screening:
        screening_logger.info(
            "screening %s %s",
            run_id,
            json.dumps(screening, sort_keys=True, default=str),
            extra={"screening": screening},
        )


def log_run(run_id: str, body: dict[str, Any], state: str) -> None:
    """One metadata line per run: ids, state, counts and timings; never question or source text."""
    logger.info(
        "run %s mode=%s state=%s refusal=%s provider=%s citations=%s latency_ms=%s",
        run_id,
        body["mode"],
        state,
        body["refusal_state"],
        body["provider"],
        body["citation_class_counts"],
        body["latency_ms"]["total"],
    )
