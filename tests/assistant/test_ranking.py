"""The learned section ranker: its committed model, its training, and what it puts first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from assistant.retrieval import rank_features, ranking, section_space
from assistant.retrieval.context_pack import get_context_pack


@pytest.fixture
def index():  # type: ignore[no-untyped-def]
    return get_context_pack().index


def test_committed_model_matches_the_features_the_code_computes() -> None:
    model = ranking.model()
    assert model.features == rank_features.FEATURES
    assert len(model.weights) == len(rank_features.FEATURES)


def test_build_ranker_check_accepts_the_committed_model() -> None:
    call_command("build_ranker", "--check")


def test_build_ranker_check_rejects_a_model_that_no_longer_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = json.loads(ranking.MODEL_PATH.read_text(encoding="utf-8"))
    raw["weights"][0] += 1.0
    stale = tmp_path / "ranker.json"
    stale.write_text(json.dumps(raw), encoding="utf-8")
    monkeypatch.setattr(ranking, "MODEL_PATH", stale)
    with pytest.raises(CommandError, match="does not match"):
        call_command("build_ranker", "--check")


def test_a_model_trained_on_other_features_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "ranker.json"
    other.write_text(json.dumps({"features": ["bm25"], "weights": [1.0]}), encoding="utf-8")
    monkeypatch.setattr(ranking, "MODEL_PATH", other)
    ranking.model.cache_clear()
    try:
        with pytest.raises(ranking.StaleRankerError, match="build_ranker"):
            ranking.model()
    finally:
        ranking.model.cache_clear()


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        ("Who decides the production go-live?", "Production go-live"),
        ("What is a gate owner?", "Gate owner"),
    ],
)
def test_the_section_that_answers_leads(index, question: str, heading: str) -> None:  # type: ignore[no-untyped-def]
    result = ranking.search(index, question, k=5)
    assert result.hits[0].row.heading == heading


def test_scores_are_shares_best_first(index) -> None:  # type: ignore[no-untyped-def]
    result = ranking.search(index, "How long is a validation receipt kept?", k=8)
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)
    assert 0 < sum(scores) <= 1.0 + 1e-9


def test_no_shared_word_means_no_hits(index) -> None:  # type: ignore[no-untyped-def]
    assert ranking.search(index, "zzzzqx", k=5).hits == ()


def test_section_space_puts_a_section_nearest_its_own_words(index) -> None:  # type: ignore[no-untyped-def]
    space = section_space.for_index(index)
    row = next(r for r in index.rows if r.heading == "Production go-live")
    vector = space.question_vector(f"{row.heading} {row.text}")
    best = max(index.rows, key=lambda r: space.similarity(vector, r))
    assert best.row_id == row.row_id


def test_nearest_sections_come_closest_first(index) -> None:  # type: ignore[no-untyped-def]
    space = section_space.for_index(index)
    row = next(r for r in index.rows if r.heading == "Production go-live")
    vector = space.question_vector(f"{row.heading} {row.text}")
    nearest = space.nearest(vector, 3)
    assert nearest[0] == row.row_id and len(nearest) == 3
    by_id = {r.row_id: r for r in index.rows}
    sims = [space.similarity(vector, by_id[i]) for i in nearest]
    assert sims == sorted(sims, reverse=True)
    assert space.nearest(space.question_vector("zzzzqx"), 3) == []


def test_candidates_reach_sections_bm25_does_not_rank(index) -> None:  # type: ignore[no-untyped-def]
    question = "who's on the hook if the thing goes wrong once it is live?"
    result = index.search(question, k=ranking.DEPTH)
    bm25 = {h.row.row_id for h in result.hits}
    pool = {c.hit.row.row_id for c in ranking.candidates(index, question, result)}
    extra = pool - bm25
    # The latent-space neighbours and the likeliest artifact's sections join BM25's rows.
    assert len(extra) >= ranking.SEMANTIC_CANDIDATES // 2
    assert all(
        c.hit.score == 0.0
        for c in ranking.candidates(index, question, result)
        if c.hit.row.row_id in extra
    )
