"""Learning the section ranker (``assistant/retrieval/ranking.py``) from the project's labelled questions.

Each labelled question (the ``answers`` training sets of ``data/MANIFEST.json``: the question, the package
sections an expert would cite, key facts) is searched against the shipped sample package, and
every candidate section becomes a feature vector (``assistant/retrieval/rank_features.py``). The model is
a pairwise logistic regression (scikit-learn, L2, no intercept): for each question, every
(cited, not cited) candidate pair is one example, and so is every pair of cited sections in the
expert's order, so the weights learn which features put the section that answers above one that
does not. The features include the votes of the nearest labelled questions
(``assistant/retrieval/question_memory.py``); each question is featurised with its own author's questions
hidden from that memory, as a new asker's question is. Training is deterministic (lbfgs on a
fixed order), so ``manage.py build_ranker --check`` can tell a committed model that no longer matches
its data or code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from assistant.package.artifacts import load_package
from assistant.retrieval import question_memory, rank_features, ranking
from assistant.retrieval.context_pack import build
from assistant.retrieval.index import Index
from learning import corpora
from learning.evaluation import answers as answer_eval
from learning.evaluation.answers import AnswerQuestion
from learning.screening.answerability import SAMPLE_PACKAGE_DIR

REGULARISATION_C = 0.3


def training_sets() -> list[Path]:
    """The answer sets the rankers and the memory learn from (``data/MANIFEST.json``)."""
    return corpora.paths("answers", "training")


@dataclass(frozen=True)
class Labelled:
    question: AnswerQuestion
    vectors: np.ndarray
    cited: np.ndarray  # True where the candidate is a section the question's expert cites
    order: np.ndarray  # the expert's order among cited sections (0 = best), -1 elsewhere


def labelled(
    index: Index, questions: Sequence[AnswerQuestion], hidden: frozenset[str] = frozenset()
) -> list[Labelled]:
    """Each question's candidates and labels. The labelled-question memory never hears the
    question's own author (nor the ``hidden`` ones): a question must not vote for itself."""
    out = []
    for q in questions:
        result = index.search(q.question, k=ranking.DEPTH)
        with question_memory.excluding(hidden | {q.author}):
            pool = ranking.candidates(index, q.question, result) if result.hits else []
        if not pool:
            continue
        keys = [(c.hit.row.source_path, c.hit.row.heading) for c in pool]
        out.append(
            Labelled(
                q,
                np.array([c.vector for c in pool]),
                np.array([key in q.sections for key in keys]),
                np.array([q.sections.index(key) if key in q.sections else -1 for key in keys]),
            )
        )
    return out


def fit(examples: Sequence[Labelled], c: float = REGULARISATION_C) -> ranking.RankerModel:
    diffs, signs = [], []
    for ex in examples:
        positives = np.flatnonzero(ex.cited)
        negatives = np.flatnonzero(~ex.cited)
        better = [(p, n) for p in positives for n in negatives]
        # The expert lists the section that answers most directly first: it should lead.
        better += [(a, b) for a in positives for b in positives if ex.order[a] < ex.order[b]]
        for a, b in better:
            diffs += [ex.vectors[a] - ex.vectors[b], ex.vectors[b] - ex.vectors[a]]
            signs += [1, 0]
    if not diffs:
        raise ValueError("no labelled question has both a cited and an uncited candidate")
    classifier = LogisticRegression(C=c, fit_intercept=False, max_iter=5000)
    classifier.fit(np.array(diffs), np.array(signs))
    return ranking.RankerModel(rank_features.FEATURES, tuple(float(w) for w in classifier.coef_[0]))


def hit_at_1(model: ranking.RankerModel, examples: Sequence[Labelled]) -> float:
    """Share of questions whose best-scored candidate is a cited section."""
    weights = np.array(model.weights)
    hits = [bool(ex.cited[int(np.argmax(ex.vectors @ weights))]) for ex in examples]
    return sum(hits) / (len(hits) or 1)


def train(*, cross_author: bool = True) -> tuple[ranking.RankerModel, dict[str, object]]:
    """The model on every labelled question, and what it was trained on. ``cross_author`` adds
    each set's hit@1 read by a model trained without it (six more fits; ``--check`` skips them,
    since only the weights are compared)."""
    index = build(load_package(SAMPLE_PACKAGE_DIR)).index
    questions = {path.name: answer_eval.load(path) for path in training_sets()}
    by_set = {name: labelled(index, qs) for name, qs in questions.items()}
    everything = [ex for examples in by_set.values() for ex in examples]
    model = fit(everything)
    cross = {}
    for name, examples in by_set.items() if cross_author else ():
        # The held-out set's authors are hidden from the others' memory too, as from a new asker's.
        mine = frozenset(q.author for q in questions[name])
        others = [
            ex
            for other, qs in questions.items()
            if other != name
            for ex in labelled(index, qs, hidden=mine)
        ]
        if others:
            cross[name] = round(hit_at_1(fit(others), examples), 3)
    about: dict[str, object] = {
        "trained_on": sorted(by_set),
        "questions": len(everything),
        "regularisation_c": REGULARISATION_C,
        "cross_author_hit_at_1": cross,
    }
    return model, about
