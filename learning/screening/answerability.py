"""Learning the answerability weights across packages, each question against its own package.

A ``no_support`` label says what the question's *own* package does not cover (the sample's
corpus against the sample, each converted package's questions against that package), so the
evidence for training is always measured against the package the question was written about; the learnt weights are over
package-relative features (:mod:`assistant.screening.answerability`) and so apply to any package. The
threshold keeps a stated share of answerable questions answerable on out-of-fold probabilities
(each author scored by weights learnt without them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from assistant.package.artifacts import load_package
from assistant.retrieval.context_pack import ContextPack, build
from assistant.screening import answerability, language
from learning import corpora
from learning.screening.corpus import Example

SAMPLE_PACKAGE_DIR = Path(__file__).resolve().parents[2] / "sample_package"
SEARCH_DEPTH = 8
# Share of answerable questions (in scope and borderline) the answerability check must keep on
# authors it was not fitted on; the rest of the no_support questions are refused.
KEEP_ANSWERABLE = 0.985
REGULARISATION_C = 1.0
ANSWERABLE_CATEGORIES = frozenset({"in_scope", "borderline"})
# The categories whose answerability is labelled: answerable, or on-domain but not covered.
LABELLED = ANSWERABLE_CATEGORIES | {"no_support"}


@dataclass(frozen=True)
class Measured:
    example: Example
    evidence: answerability.Evidence

    @property
    def answerable(self) -> bool:
        return self.example.category in ANSWERABLE_CATEGORIES


def measure(
    examples: Sequence[Example], pack: ContextPack | dict[str, ContextPack]
) -> list[Measured]:
    """The answerability evidence of every on-domain (labelled) example against its package's
    pack (``pack``: one pack for every example, or the pack of each example's package).

    Left out, as the serving path never asks answerability about them
    (``assistant/pipeline/policy.py``): requests asked with an upload selected (answered by the
    criteria review) and questions in another language than the package's (answered with the
    language notice before retrieval). Their words are all "missing" from an English package,
    so kept in, they held the threshold down to where few uncovered questions were refused.
    """
    return measure_all(
        [
            e
            for e in examples
            if e.category in LABELLED
            and not e.with_upload
            and language.other_language(e.question) is None
        ],
        pack,
    )


def measure_all(
    examples: Sequence[Example], pack: ContextPack | dict[str, ContextPack]
) -> list[Measured]:
    """The answerability evidence of every example against its package's pack."""
    measured = []
    for example in examples:
        own = pack if isinstance(pack, ContextPack) else pack[example.package]
        measured.append(_measure_one(example, own))
    return measured


def _measure_one(example: Example, pack: ContextPack) -> Measured:
    index = pack.index
    search = index.search(example.question, k=SEARCH_DEPTH)
    found = answerability.evidence(
        example.question,
        search,
        vocabulary=index.doc_freq,
        package_text=pack.text,
        correct=index.correct,
    )
    return Measured(example, found)


def _fit(measured: Sequence[Measured]) -> np.ndarray:
    x = np.array([m.evidence.vector() for m in measured])
    y = np.array([m.answerable for m in measured], dtype=int)
    classifier = LogisticRegression(
        C=REGULARISATION_C, fit_intercept=False, max_iter=2000, class_weight="balanced"
    )
    classifier.fit(x, y)
    return classifier.coef_[0]


def _probabilities(weights: np.ndarray, measured: Sequence[Measured]) -> np.ndarray:
    x = np.array([m.evidence.vector() for m in measured])
    return 1.0 / (1.0 + np.exp(-np.clip(x @ weights, -50, 50)))


def _threshold(probs: np.ndarray, answerable: np.ndarray) -> float:
    kept = np.sort(probs[answerable])
    return float(kept[int((1.0 - KEEP_ANSWERABLE) * len(kept))]) if len(kept) else 0.5


def out_of_fold(measured: Sequence[Measured]) -> np.ndarray:
    probs = np.zeros(len(measured))
    for author in sorted({m.example.author for m in measured}):
        held = [i for i, m in enumerate(measured) if m.example.author == author]
        weights = _fit([m for m in measured if m.example.author != author])
        probs[held] = _probabilities(weights, [measured[i] for i in held])
    return probs


def train(measured: Sequence[Measured]) -> answerability.AnswerabilityModel:
    """Weights from every example; the threshold from out-of-fold probabilities."""
    answerable = np.array([m.answerable for m in measured])
    threshold = _threshold(out_of_fold(measured), answerable)
    weights = _fit(measured)
    return answerability.AnswerabilityModel(
        weights=tuple(round(float(w), 6) for w in weights), threshold=round(threshold, 6)
    )


def held_out(measured: Sequence[Measured], author: str) -> answerability.AnswerabilityModel:
    """The model an evaluation of ``author`` uses: nothing ``author`` wrote takes part in it."""
    return train([m for m in measured if m.example.author != author])


def sample_pack() -> ContextPack:
    return build(load_package(SAMPLE_PACKAGE_DIR))


def packs(examples: Sequence[Example]) -> dict[str, ContextPack]:
    """The context pack of every package the examples were written about."""
    return {
        slug: build(load_package(corpora.package_dir(slug)))
        for slug in sorted({e.package for e in examples})
    }
