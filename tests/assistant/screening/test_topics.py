"""The artifact topic classifier: trained from labelled questions, saved and loaded unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.screening import topics
from assistant.screening.artifact import get_screening
from assistant.screening.model import ModelError
from learning.screening import topics as topics_training
from learning.screening.corpus import Example


def _corpus() -> list[Example]:
    pairs = [
        ("tokenomics", "how much does a question cost in tokens"),
        ("tokenomics", "what is the token budget per answer"),
        ("tokenomics", "cost per request and token spend"),
        ("tokenomics", "who owns the token cost envelope"),
        ("glossary", "what does gate owner mean"),
        ("glossary", "define claim boundary"),
        ("glossary", "meaning of the term source owner"),
        ("glossary", "what is a stage gate, define it"),
    ]
    return [Example("t", "in_scope", q, topic) for topic, q in pairs] + [
        Example("t", "general_chat", "tell me a joke")
    ]


def test_a_question_is_placed_in_the_artifact_its_words_belong_to() -> None:
    model = topics_training.train(_corpus())
    probs = model.probabilities("what do tokens cost per answer")
    assert set(probs) == {"glossary", "tokenomics"}
    assert abs(sum(probs.values()) - 1.0) < 1e-9
    assert probs["tokenomics"] > probs["glossary"]


def test_saved_and_loaded_model_scores_the_same(tmp_path: Path) -> None:
    model = topics_training.train(_corpus())
    model.save(tmp_path)
    loaded = topics.TopicModel.load(tmp_path)
    for question in ("define source owner", "token spend per request"):
        a, b = model.probabilities(question), loaded.probabilities(question)
        assert a.keys() == b.keys()
        assert all(abs(a[k] - b[k]) < 1e-5 for k in a)


def test_a_broken_model_file_is_a_model_error(tmp_path: Path) -> None:
    topics_training.train(_corpus()).save(tmp_path)
    (tmp_path / topics.META_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError, match="topic model"):
        topics.TopicModel.load(tmp_path)


def test_one_topic_is_not_enough_to_train() -> None:
    with pytest.raises(ValueError, match="fewer than two"):
        topics_training.train([Example("t", "in_scope", "a question", "glossary")])


def test_the_shipped_artifact_knows_every_sample_package_artifact() -> None:
    shipped = get_screening().topics
    assert len(shipped.topics) == 16
    for question, topic in (
        ("how many tokens does one answer cost?", "tokenomics"),
        (
            "what has to be ready before engineers start building the proof of concept?",
            "build-readiness",
        ),
    ):
        probs = shipped.probabilities(question)
        assert max(probs, key=probs.__getitem__) == topic, question
