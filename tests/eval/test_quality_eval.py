"""Answer-quality and criteria-review floors on the held-out sets (the full report is `make eval`).

The floors sit slightly below what the held-out sets measured when this landed (docs/evaluation.md);
several are below the issue's bars, which the held-out sets do not yet meet. The tuning sets
(dev-analyst, consultant) carry no floor here: a figure on the data a rule was tuned on proves little.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant import answer_eval, review_eval

HERE = Path(__file__).parent
ANSWER_FLOORS = {"hit_at_1": 0.53, "hit_at_any": 0.66, "key_fact_recall": 0.39, "answered": 0.94}
REVIEW_FLOORS = {"recall": 0.78, "contradictions_flagged": 0.50, "verbatim_rate": 0.98}
REVIEW_CEILINGS = {"false_alarm_rate": 0.33}


@pytest.fixture(scope="module")
def answers() -> dict[str, float]:
    return answer_eval.figures(
        answer_eval.evaluate(answer_eval.load(HERE / "answers/heldout-auditor.jsonl"))
    )


@pytest.fixture(scope="module")
def reviews() -> dict[str, float]:
    return review_eval.figures(review_eval.evaluate(HERE / "reviews/engineer"))


@pytest.mark.parametrize(("measure", "floor"), sorted(ANSWER_FLOORS.items()))
def test_held_out_answer_floors(answers: dict[str, float], measure: str, floor: float) -> None:
    assert answers[measure] >= floor, f"{measure}={answers[measure]:.3f}"


@pytest.mark.parametrize(("measure", "floor"), sorted(REVIEW_FLOORS.items()))
def test_held_out_review_floors(reviews: dict[str, float], measure: str, floor: float) -> None:
    assert reviews[measure] >= floor, f"{measure}={reviews[measure]:.3f}"


@pytest.mark.parametrize(("measure", "ceiling"), sorted(REVIEW_CEILINGS.items()))
def test_held_out_review_ceilings(reviews: dict[str, float], measure: str, ceiling: float) -> None:
    assert reviews[measure] <= ceiling, f"{measure}={reviews[measure]:.3f}"


def test_key_facts_are_read_without_markup() -> None:
    assert (
        answer_eval.plain("- **Named users.** The statement [P1]\n") == "named users. the statement"
    )
