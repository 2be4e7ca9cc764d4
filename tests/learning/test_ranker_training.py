"""The section ranker learns from every package's questions, and a fold leaves one package out."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.retrieval import rank_features
from learning.training import ranker as ranker_training
from learning.training.ranker import Labelled

N = len(rank_features.FEATURES)
EMBEDDING = rank_features.FEATURES.index("embedding_similarity")
FIRST_STAGE = rank_features.FEATURES.index("first_stage_share")


def _question(package: str, seed: int) -> Labelled:
    """Four candidates; the cited one is closest in the embedding, BM25 prefers another."""
    rng = np.random.default_rng(seed)
    vectors = rng.uniform(0, 0.2, size=(4, N))
    vectors[0, EMBEDDING] = 0.9
    vectors[1, FIRST_STAGE] = 1.0
    return Labelled(
        package,
        None,  # type: ignore[arg-type]
        vectors,
        np.array([True, False, False, False]),
        np.array([0, -1, -1, -1]),
    )


def test_a_fold_holds_its_package_out_and_keeps_the_others() -> None:
    examples = {"a": [_question("a", 1)], "b": [_question("b", 2), _question("b", 3)]}
    assert {ex.package for ex in ranker_training.without(examples, "a")} == {"b"}
    assert len(ranker_training.without(examples, "")) == 3


def test_the_fit_learns_the_signal_that_marks_the_cited_section() -> None:
    examples = [_question(p, s) for p in ("a", "b") for s in range(20)]
    model = ranker_training.fit(examples)
    assert model.features == rank_features.FEATURES
    assert model.weights[EMBEDDING] > 0
    assert ranker_training.hit_at_1(model, examples) == 1.0
    assert ranker_training.bm25_hit_at_1(examples) == 0.0


def test_questions_without_a_cited_and_an_uncited_candidate_cannot_train() -> None:
    only_cited = Labelled("a", None, np.ones((1, N)), np.array([True]), np.array([0]))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="both a cited and an uncited"):
        ranker_training.fit([only_cited])


@pytest.mark.django_db
def test_every_converted_package_is_training_data_and_in_the_fingerprint() -> None:
    from learning import corpora

    files = ranker_training.data_files()
    for labelled_set in corpora.sets("questions"):
        assert labelled_set.path in files
        assert corpora.package_dir(labelled_set.package) in files
    assert set(ranker_training.training_sets()) <= set(files)
