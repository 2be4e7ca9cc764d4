"""The composer's learnt unit ranker: shipped, checked for staleness, and used by the answer.

Its figures are held-out floors in tests/eval/; these tests pin behaviour.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from assistant.compose import unit_ranking
from assistant.compose.unit_scoring import Scored
from assistant.domain import lanes
from assistant.package.units import Unit
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from learning.training import unit_ranker as unit_ranking_training


def _package_says(question: str) -> str:
    run = services.answer(question=question, provider=DeterministicProvider())
    return next(lane.text for lane in run.lanes if lane.label == lanes.PACKAGE_SAYS)


def test_the_shipped_model_reads_the_named_features() -> None:
    model = unit_ranking.model()
    assert model is not None
    for name in ("relative_score", "own_share", "listing_whole", "figure_figure", "latent"):
        assert name in model.weights
    again = unit_ranking.UnitRanker.from_json(model.to_json())
    assert again.weights == model.weights and again.intercept == model.intercept


def test_rescoring_gives_probabilities_that_follow_the_weights() -> None:
    ranker = unit_ranking.UnitRanker({"own_share": 4.0}, -2.0, {})
    unit = Unit("sentence", "A sentence.", 0, 0)
    low, high = ranker.rescore(
        [
            (Scored(9.0, 0, unit, frozenset()), {"own_share": 0.0}),
            (Scored(1.0, 0, unit, frozenset()), {"own_share": 1.0}),
        ]
    )
    assert 0 < low.score < 0.5 < high.score < 1


def test_without_a_model_the_hand_scores_compose_the_answer() -> None:
    question = "Who decides the production go-live?"
    with unit_ranking.reading_with(None):
        by_hand = _package_says(question)
    assert by_hand.startswith("Production go-live is decided by the product owner at Gate 4")
    assert _package_says(question).startswith("Production go-live is decided by the product owner")


def test_a_list_question_is_led_by_the_checklist_whole() -> None:
    text = _package_says("What must a build-readiness review check?")
    assert text.startswith("- Problem statement — Evidence expected:")
    assert "- Model route — Evidence expected:" in text


def test_a_whole_table_answers_only_a_list_question_or_several_facts() -> None:
    answers = unit_ranking_training.answers
    assert answers(1, "sentence", "who") and answers(1, "row", "how_many")
    assert not answers(1, "table", "who") and not answers(1, "list", "definition")
    assert answers(1, "table", "what_must") and answers(2, "list", "who")
    assert not answers(0, "sentence", "what_must")


def test_build_unit_ranker_check_accepts_the_committed_model() -> None:
    call_command("build_unit_ranker", "--check")


def test_build_unit_ranker_check_rejects_a_stale_model(tmp_path, monkeypatch) -> None:
    data = json.loads(unit_ranking.MODEL_PATH.read_text(encoding="utf-8"))
    data["weights"]["own_share"] += 1.0
    stale = tmp_path / "unit_ranker.json"
    stale.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(unit_ranking, "MODEL_PATH", stale)
    with pytest.raises(CommandError, match="build_unit_ranker"):
        call_command("build_unit_ranker", "--check")
