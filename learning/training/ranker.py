"""Learning the section ranker (``assistant/retrieval/ranking.py``) from labelled questions about many packages.

The ranker serves whatever package a deployment points it at, so it learns from questions about
every package the project has: the sample's training answer sets (``data/MANIFEST.json``, kind
``answers``) and the questions written about each converted public package (kind ``questions``,
``data/packages/``), each question with the sections an expert cites. Each question is searched
against its own package, and every candidate section becomes a feature vector
(``assistant/retrieval/rank_features.py``). The model is a pairwise logistic regression
(scikit-learn, L2, no intercept): for each question, every (cited, not cited) candidate pair is
one example, and so is every pair of cited sections in the expert's order. Every pair weighs
the same, so the sample's 1,658 questions weigh more than a converted package's hundred. Weighing
each package the same instead reads no better on packages held out (mean out-of-package hit@1
0.683 with equal package weights, 0.684 with weights by the square root of a package's size,
0.681 with none; about 0.01 is noise on a hundred questions), and it loses patterns that only
the sample has enough questions to show, such as the glossary entry that answers "What is a
gate owner?".

The features include the votes of the nearest labelled questions
(``assistant/retrieval/question_memory.py``), which only the sample's own questions give; each
question is featurised with its own author's questions hidden from that memory, as a new
asker's question is. On a package the memory does not describe those features are zero for
every candidate and change no order. Training is deterministic (lbfgs on a fixed order), so
``manage.py build_ranker --check`` can tell a committed model that no longer matches its data or
code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from learning.evaluation.packages import SAMPLE, PackageSet
from learning.screening.answerability import SAMPLE_PACKAGE_DIR

REGULARISATION_C = 0.3


def training_sets() -> list[Path]:
    """The sample's answer sets the rankers and the memory learn from (``data/MANIFEST.json``)."""
    return corpora.paths("answers", "training")


def package_sets() -> list[Path]:
    """The converted packages' question sets the ranker also learns from, and the packages."""
    converted = corpora.sets("questions")
    return [s.path for s in converted] + sorted({corpora.package_dir(s.package) for s in converted})


def data_files() -> list[Path]:
    """Every file the section ranker's fit reads, for its manifest fingerprint."""
    return training_sets() + package_sets()


@dataclass(frozen=True)
class Labelled:
    package: str
    question: AnswerQuestion
    vectors: np.ndarray
    cited: np.ndarray  # True where the candidate is a section the question's expert cites
    order: np.ndarray  # the expert's order among cited sections (0 = best), -1 elsewhere


def labelled(
    index: Index,
    questions: Sequence[AnswerQuestion],
    hidden: frozenset[str] = frozenset(),
    *,
    package: str = SAMPLE,
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
                package,
                q,
                np.array([c.vector for c in pool]),
                np.array([key in q.sections for key in keys]),
                np.array([q.sections.index(key) if key in q.sections else -1 for key in keys]),
            )
        )
    return out


def fit(examples: Sequence[Labelled], c: float = REGULARISATION_C) -> ranking.RankerModel:
    """The pairwise model: every (better, worse) candidate pair of every question weighs the same."""
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


FIRST_STAGE = rank_features.FEATURES.index("first_stage_share")


def bm25_hit_at_1(examples: Sequence[Labelled]) -> float:
    """The same share for BM25's order alone (the first-stage score), on the same candidates."""
    hits = [bool(ex.cited[int(np.argmax(ex.vectors[:, FIRST_STAGE]))]) for ex in examples]
    return sum(hits) / (len(hits) or 1)


def answer_questions(package: PackageSet) -> list[AnswerQuestion]:
    """A converted package's answerable questions that name the sections that answer them."""
    return [
        AnswerQuestion(q.id, q.author, q.question, q.sections, q.key_facts, "")
        for q in package.questions
        if q.answerable and q.sections
    ]


def by_package(converted: Sequence[PackageSet]) -> dict[str, list[Labelled]]:
    """Every package's labelled candidates: the sample's training sets and each converted
    package's questions, each searched against its own package."""
    from learning.evaluation import lopo

    sample_index = build(load_package(SAMPLE_PACKAGE_DIR)).index
    out = {
        SAMPLE: [
            ex
            for path in training_sets()
            for ex in labelled(sample_index, answer_eval.load(path), package=SAMPLE)
        ]
    }
    for package in converted:
        with lopo.serving(package.pack):
            out[package.slug] = labelled(
                package.pack.index, answer_questions(package), package=package.slug
            )
    return out


def without(examples: Mapping[str, Sequence[Labelled]], held_out: str) -> list[Labelled]:
    return [ex for slug, exs in examples.items() if slug != held_out for ex in exs]


def train(*, cross_package: bool = True) -> tuple[ranking.RankerModel, dict[str, object]]:
    """The model on every package's labelled questions, and what it was trained on.
    ``cross_package`` adds each package's hit@1 read by a model trained without it, beside
    BM25's on the same candidates (one more fit per package; ``--check`` skips them, since only
    the weights are compared)."""
    from learning.evaluation import packages as package_sets

    examples = by_package(package_sets.converted())
    model = fit(without(examples, held_out=""))
    cross = {
        slug: {
            "ranker": round(hit_at_1(fit(without(examples, slug)), mine), 3),
            "bm25": round(bm25_hit_at_1(mine), 3),
        }
        for slug, mine in (examples.items() if cross_package else ())
    }
    about: dict[str, object] = {
        "trained_on": {slug: len(exs) for slug, exs in examples.items()},
        "questions": sum(len(exs) for exs in examples.values()),
        "regularisation_c": REGULARISATION_C,
        "out_of_package_hit_at_1": cross,
    }
    return model, about
