"""The screening artifact: written and read back whole, checked for staleness, built repeatably."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from assistant.screening import artifact
from assistant.screening.model import ModelError, ScreeningModel
from learning.screening import artifact as building
from learning.screening import corpus, training


@pytest.fixture(scope="module")
def shipped() -> artifact.Screening:
    return artifact.get_screening()


def test_the_artifact_reads_back_as_written(shipped: artifact.Screening, tmp_path: Path) -> None:
    building.write(shipped, tmp_path)
    again = artifact.read(tmp_path)
    assert again.fingerprint == shipped.fingerprint
    assert again.answerability == shipped.answerability
    assert again.intent.thresholds == shipped.intent.thresholds
    question = "alright if we ship the pilot to every branch on monday?"
    assert again.intent.screen(question) == shipped.intent.screen(question)


def test_a_missing_or_foreign_artifact_is_a_named_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no usable screening model"):
        ScreeningModel.load(tmp_path)
    with pytest.raises(CommandError, match="build_screening_model"):
        call_command("build_screening_model", "--check", "--out", str(tmp_path))


def test_check_fails_on_a_stale_artifact(shipped: artifact.Screening, tmp_path: Path) -> None:
    building.write(dataclasses.replace(shipped, fingerprint="0" * 16), tmp_path)
    with pytest.raises(CommandError, match="stale"):
        call_command("build_screening_model", "--check", "--out", str(tmp_path))
    building.write(shipped, tmp_path)
    call_command("build_screening_model", "--check", "--out", str(tmp_path))


def test_training_is_repeatable() -> None:
    examples = [e for e in corpus.load() if e.author == "newcomer"]
    first, second = training.fit(examples), training.fit(examples)
    assert np.array_equal(first.coef, second.coef)
    assert np.array_equal(first.intercept, second.intercept)


def test_a_corpus_line_without_an_author_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"category": "in_scope", "question": "q"}\n')
    with pytest.raises(corpus.CorpusError, match="bad.jsonl:1"):
        corpus.load(tmp_path)
    (tmp_path / "bad.jsonl").write_text(
        '{"author": "a", "category": "chit_chat", "question": "q"}\n'
    )
    with pytest.raises(corpus.CorpusError, match="unknown category"):
        corpus.load(tmp_path)
