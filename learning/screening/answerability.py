"""Learning the answerability weights across packages, each question against its own package.

A ``no_support`` label says what the question's *own* package does not cover (the sample's
corpus against the sample, each converted package's questions against that package), so the
evidence for training is always measured against the package the question was written about; the learnt weights are over
package-relative features (:mod:`assistant.screening.answerability`) and so apply to any package. The
threshold keeps a stated share of answerable questions answerable on out-of-fold probabilities
(each author scored by weights learnt without them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from assistant.package.artifacts import load_package
from assistant.retrieval.context_pack import ContextPack, build
from assistant.screening import answerability, language
from assistant.screening.model import CLASSES
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


def out_of_fold(
    measured: Sequence[Measured], labelled: Sequence[Measured] | None = None
) -> np.ndarray:
    """Each measured example's probability from weights fitted on every other author's
    examples (of ``labelled``, when the measured include examples the weights never learn
    from, such as general chat)."""
    train = measured if labelled is None else labelled
    probs = np.zeros(len(measured))
    for author in sorted({m.example.author for m in measured}):
        held = [i for i, m in enumerate(measured) if m.example.author == author]
        weights = _fit([m for m in train if m.example.author != author])
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


#: Where ``covers`` may lie; above 1, the package never overrules a general-chat reading.
COVERS_GRID = (*(round(0.5 + 0.05 * i, 2) for i in range(10)), 1.01)
#: The categories ``choose_covers`` reads: those the overrule can turn right or wrong.
COVERS_CATEGORIES = LABELLED | {"general_chat"}


def choose_covers(
    model: answerability.AnswerabilityModel,
    examples: Sequence[Example],
    intent_scores: tuple[np.ndarray, np.ndarray],
    thresholds: dict[str, float],
    pack: ContextPack | dict[str, ContextPack],
    evidence: Mapping[str, answerability.Evidence] | None = None,
) -> answerability.AnswerabilityModel:
    """``model`` with the probability from which the package overrules the intent screen's
    reading of a question as general chat (``evidence``: each question's evidence, when the
    caller has measured it against ``pack`` already).

    Chosen on out-of-fold decisions: each example's intent decision from a model trained
    without its author (``intent_scores``, as the intent thresholds were chosen) and its
    answerability probability from weights learnt without its author; the value on
    :data:`COVERS_GRID` that serves best the mean of three rates (answerable questions
    answered, general chat refused as general chat, uncovered questions refused as not
    covered), the highest on a tie. Only questions serving judges this way take part: in
    the package's language and without an upload.
    """
    from learning.screening import training  # the intent side's decision, vectorised

    keep = [
        i
        for i, e in enumerate(examples)
        if e.category in COVERS_CATEGORIES
        and not e.with_upload
        and language.other_language(e.question) is None
    ]
    whole, parts = intent_scores
    decided = training.decide_rows((whole[keep], parts[keep]), thresholds)
    kept = [examples[i] for i in keep]
    if evidence is None:
        measured = measure_all(kept, pack)
    else:
        measured = [Measured(e, evidence[e.question]) for e in kept]
    probs = out_of_fold(measured, [m for m in measured if m.example.category in LABELLED])
    category = np.array([e.category for e in kept])
    return dataclasses.replace(model, covers=best_covers(decided, probs, category, model.threshold))


def best_covers(
    decided: np.ndarray, probs: np.ndarray, category: np.ndarray, threshold: float
) -> float:
    """The value on :data:`COVERS_GRID` whose final outcomes serve best the mean of the three
    rates ``choose_covers`` names (the highest value on a tie: overrule no more than needed).

    ``decided``: each question's intent decision (a class index); ``probs``: its answerability
    probability; ``category``: its label; ``threshold``: the answerability threshold."""
    chat = CLASSES.index("unsupported_general_chat")
    answer = CLASSES.index("answer")
    answerable = np.isin(category, list(ANSWERABLE_CATEGORIES))
    best: tuple[float, float] = (-1.0, COVERS_GRID[-1])
    for covers in COVERS_GRID:
        overruled = (decided == chat) & (probs >= max(covers, threshold))
        final = np.where(overruled, answer, decided)
        answered = (final == answer) & (probs >= threshold)
        rates = [
            answered[answerable],
            (final == chat)[category == "general_chat"],
            ((final == answer) & ~answered)[category == "no_support"],
        ]
        score = float(np.mean([r.mean() for r in rates if r.size]))
        if (score, covers) >= best:
            best = (score, covers)
    return best[1]


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
