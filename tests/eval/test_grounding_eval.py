"""The labelled evaluation set holds its targets (the full report is `make eval`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from learning.evaluation import grounding as evaluation

HERE = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module", params=["questions.jsonl", "heldout.jsonl", "fresh.jsonl"])
def report(request) -> evaluation.Report:
    return evaluation.evaluate(evaluation.load_questions(HERE / "eval" / request.param))


def test_the_set_is_large_and_labelled() -> None:
    questions = evaluation.load_questions(HERE / "eval" / "questions.jsonl")
    questions += evaluation.load_questions(HERE / "eval" / "heldout.jsonl")
    questions += evaluation.load_questions(HERE / "eval" / "fresh.jsonl")
    assert len(questions) >= 550
    categories = {q.category for q in questions}
    assert {"in_scope", "borderline", "general_chat", "approval", "private_data"} <= categories
    package_topics = {p.stem for p in (HERE.parent / "sample_package").glob("*.md")}
    for q in questions:
        if q.expected == evaluation.ANSWERED:
            assert q.topic in package_topics, q.id


@pytest.mark.parametrize(("measure", "target"), sorted(evaluation.TARGETS.items()))
def test_targets_are_met(report: evaluation.Report, measure: str, target: float) -> None:
    misses = [f"{o.question.id}: {o.decision}" for o in report.failures][:15]
    assert report.rates[measure] >= target, (
        f"{measure}={report.rates[measure]:.3f}; misses: {misses}"
    )


def test_scoring_counts_precision_and_recall() -> None:
    q = evaluation.Question("x", "approval", "approve it", "unsupported_approval_request")
    a = evaluation.Question("y", "in_scope", "gates?", "answered", topic="capability-lifecycle")
    report = evaluation.score(
        [
            evaluation.Outcome(q, "unsupported_approval_request", False, ()),
            evaluation.Outcome(a, "unsupported_approval_request", False, ("glossary",)),
        ]
    )
    assert report.rates["approval_refused"] == 1.0
    assert report.rates["in_scope_answered"] == 0.0
    assert report.rates["top3_hit_rate"] == 0.0
    assert report.per_pattern["unsupported_approval_request"]["precision"] == 0.5
    assert report.per_pattern["unsupported_approval_request"]["recall"] == 1.0
